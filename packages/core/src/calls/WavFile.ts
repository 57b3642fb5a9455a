import { Either } from "effect"
import { InvalidWav } from "./CallErrors.js"

/**
 * PCM WAV files: the format of call recordings. `generate` writes the simulated runtime's recordings
 * (8 kHz, mono, 16-bit, telephone quality); `parse` reads and checks any PCM WAV header, so that a stored
 * "audio/wav" file really is one.
 */

/** Telephone audio: 8000 samples a second. */
export const sampleRate = 8000
/** One channel. */
export const channels = 1
/** 16-bit signed little-endian samples. */
export const bitsPerSample = 16
/** Bytes of one second of generated audio: 8000 samples × 2 bytes. */
export const bytesPerSecond = (sampleRate * channels * bitsPerSample) / 8

/** The size of the canonical header that `generate` writes (RIFF + "fmt " + "data" chunk headers). */
export const headerBytes = 44

/** The longest recording `generate` writes: a RIFF size is 32 bits, and four hours is plenty for a call. */
export const maxSeconds = 4 * 60 * 60

/** What a WAV header says about its audio. */
export interface WavInfo {
  /** 1 for PCM, the only format accepted. */
  readonly audio_format: number
  readonly channels: number
  readonly sample_rate: number
  readonly bits_per_sample: number
  readonly byte_rate: number
  readonly block_align: number
  /** Bytes of audio in the `data` chunk. */
  readonly data_bytes: number
  /** Where the audio starts in the file. */
  readonly data_offset: number
  /** `data_bytes / byte_rate`. */
  readonly duration_seconds: number
}

/** The samples of a recording of `seconds` (rounded to the nearest sample; negative or non-finite is 0). */
export const sampleCount = (seconds: number): number =>
  Number.isFinite(seconds) && seconds > 0 ? Math.round(Math.min(seconds, maxSeconds) * sampleRate) : 0

const writeAscii = (view: DataView, offset: number, text: string) => {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i))
}

const readAscii = (view: DataView, offset: number, length: number): string =>
  String.fromCharCode(...Array.from({ length }, (_, i) => view.getUint8(offset + i)))

/**
 * A valid PCM WAV (8 kHz, mono, 16-bit) of `seconds` (fractions allowed, at most `maxSeconds`): a quiet
 * 425 Hz tone (the European call-progress tone) under a little noise, so a player shows and plays
 * something. Deterministic: the same length always gives the same bytes.
 */
export const generate = (seconds: number): Uint8Array => {
  const samples = sampleCount(seconds)
  const dataBytes = samples * 2
  const bytes = new Uint8Array(headerBytes + dataBytes)
  const view = new DataView(bytes.buffer)
  writeAscii(view, 0, "RIFF")
  view.setUint32(4, 36 + dataBytes, true)
  writeAscii(view, 8, "WAVE")
  writeAscii(view, 12, "fmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, channels, true)
  view.setUint32(24, sampleRate, true)
  view.setUint32(28, bytesPerSecond, true)
  view.setUint16(32, (channels * bitsPerSample) / 8, true)
  view.setUint16(34, bitsPerSample, true)
  writeAscii(view, 36, "data")
  view.setUint32(40, dataBytes, true)
  // A small linear congruential generator: noise without randomness, so recordings are reproducible.
  let seed = 0x2545f491
  for (let i = 0; i < samples; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    const noise = (seed >>> 26) - 32 // -32..31
    const tone = Math.round(600 * Math.sin((2 * Math.PI * 425 * i) / sampleRate))
    view.setInt16(headerBytes + i * 2, tone + noise, true)
  }
  return bytes
}

/** A PCM WAV (mono, 16-bit) of `samples` at `rate` (8 kHz by default): a real call's recording. */
export const fromSamples = (samples: Int16Array, rate: number = sampleRate): Uint8Array => {
  const dataBytes = samples.length * 2
  const bytes = new Uint8Array(headerBytes + dataBytes)
  const view = new DataView(bytes.buffer)
  writeAscii(view, 0, "RIFF")
  view.setUint32(4, 36 + dataBytes, true)
  writeAscii(view, 8, "WAVE")
  writeAscii(view, 12, "fmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, channels, true)
  view.setUint32(24, rate, true)
  view.setUint32(28, (rate * channels * bitsPerSample) / 8, true)
  view.setUint16(32, (channels * bitsPerSample) / 8, true)
  view.setUint16(34, bitsPerSample, true)
  writeAscii(view, 36, "data")
  view.setUint32(40, dataBytes, true)
  for (let i = 0; i < samples.length; i++) view.setInt16(headerBytes + i * 2, samples[i]!, true)
  return bytes
}

/**
 * Reads a WAV file's header: RIFF/WAVE, a PCM "fmt " chunk whose rates agree with each other, and a
 * "data" chunk that fits in the file and holds whole sample frames. Other chunks (LIST, fact) are skipped.
 */
export const parse = (bytes: Uint8Array): Either.Either<WavInfo, InvalidWav> => {
  const fail = (reason: string) => Either.left(new InvalidWav({ reason }))
  if (bytes.length < 12) return fail("shorter than a RIFF header")
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (readAscii(view, 0, 4) !== "RIFF" || readAscii(view, 8, 4) !== "WAVE") {
    return fail("no RIFF/WAVE signature")
  }
  if (view.getUint32(4, true) !== bytes.length - 8) return fail("the RIFF size does not match the file size")
  let format: Omit<WavInfo, "data_bytes" | "data_offset" | "duration_seconds"> | undefined
  let offset = 12
  while (offset + 8 <= bytes.length) {
    const id = readAscii(view, offset, 4)
    const size = view.getUint32(offset + 4, true)
    const body = offset + 8
    if (body + size > bytes.length) return fail(`the "${id}" chunk runs past the end of the file`)
    if (id === "fmt ") {
      if (size < 16) return fail("the fmt chunk is too short")
      const audio_format = view.getUint16(body, true)
      const channelCount = view.getUint16(body + 2, true)
      const sample_rate = view.getUint32(body + 4, true)
      const byte_rate = view.getUint32(body + 8, true)
      const block_align = view.getUint16(body + 12, true)
      const bits_per_sample = view.getUint16(body + 14, true)
      if (audio_format !== 1) return fail(`audio format ${audio_format} is not PCM`)
      if (channelCount === 0 || sample_rate === 0 || bits_per_sample === 0 || bits_per_sample % 8 !== 0) {
        return fail("the fmt chunk has no channels, no sample rate or a sample size that is not whole bytes")
      }
      if (block_align !== (channelCount * bits_per_sample) / 8 || byte_rate !== sample_rate * block_align) {
        return fail("the fmt chunk's byte rate or block alignment disagrees with its sample format")
      }
      format = {
        audio_format,
        channels: channelCount,
        sample_rate,
        bits_per_sample,
        byte_rate,
        block_align
      }
    } else if (id === "data") {
      if (format === undefined) return fail("the data chunk comes before the fmt chunk")
      if (size % format.block_align !== 0) return fail("the data chunk does not hold whole sample frames")
      return Either.right({
        ...format,
        data_bytes: size,
        data_offset: body,
        duration_seconds: size / format.byte_rate
      })
    }
    // Chunks are padded to an even size.
    offset = body + size + (size % 2)
  }
  return fail(format === undefined ? "no fmt chunk" : "no data chunk")
}
