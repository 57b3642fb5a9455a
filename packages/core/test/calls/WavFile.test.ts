import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import * as WavFile from "../../src/calls/WavFile.js"

const parsed = (bytes: Uint8Array) => Either.getOrThrow(WavFile.parse(bytes))
const refusal = (bytes: Uint8Array) => Either.flip(WavFile.parse(bytes)).pipe(Either.getOrThrow).reason

const samples = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: (bytes.length - WavFile.headerBytes) / 2 }, (_, i) =>
    view.getInt16(WavFile.headerBytes + i * 2, true)
  )
}

/** A copy with bytes changed, for damaged headers. */
const patched = (bytes: Uint8Array, change: (view: DataView) => void) => {
  const copy = bytes.slice()
  change(new DataView(copy.buffer))
  return copy
}

describe("WavFile.generate", () => {
  it("writes a canonical 8 kHz mono 16-bit PCM header over seconds × 16000 bytes of audio", () => {
    const wav = WavFile.generate(2)
    expect(wav.length).toBe(44 + 32_000)
    expect(new TextDecoder().decode(wav.slice(0, 4))).toBe("RIFF")
    expect(new TextDecoder().decode(wav.slice(8, 16))).toBe("WAVEfmt ")
    expect(new TextDecoder().decode(wav.slice(36, 40))).toBe("data")
    expect(parsed(wav)).toEqual({
      audio_format: 1,
      channels: 1,
      sample_rate: 8000,
      bits_per_sample: 16,
      byte_rate: 16_000,
      block_align: 2,
      data_bytes: 32_000,
      data_offset: 44,
      duration_seconds: 2
    })
  })

  it("takes fractions of a second to the nearest sample, and nothing below zero", () => {
    expect(parsed(WavFile.generate(0.25)).data_bytes).toBe(4000)
    expect(parsed(WavFile.generate(0.0001)).data_bytes).toBe(2)
    expect(parsed(WavFile.generate(0)).data_bytes).toBe(0)
    expect(parsed(WavFile.generate(-3)).data_bytes).toBe(0)
    expect(parsed(WavFile.generate(Number.NaN)).data_bytes).toBe(0)
  })

  it("is quiet but not silent, and the same every time", () => {
    const audio = samples(WavFile.generate(1))
    const loudest = Math.max(...audio.map(Math.abs))
    expect(loudest).toBeGreaterThan(100)
    expect(loudest).toBeLessThan(1000)
    expect(WavFile.generate(1)).toEqual(WavFile.generate(1))
  })

  it.prop(
    "any length parses back: seconds × 8000 samples of 2 bytes",
    [FastCheck.double({ min: 0, max: 30, noNaN: true })],
    ([seconds]) => {
      const info = parsed(WavFile.generate(seconds))
      expect(info.data_bytes).toBe(Math.round(seconds * 8000) * 2)
      expect(Math.abs(info.duration_seconds - seconds)).toBeLessThanOrEqual(1 / 16_000)
      expect(info).toMatchObject({ sample_rate: 8000, channels: 1, bits_per_sample: 16 })
    }
  )
})

describe("WavFile.parse", () => {
  const wav = WavFile.generate(0.5)

  it("refuses what is not a RIFF/WAVE file or whose sizes do not add up", () => {
    expect(refusal(new Uint8Array())).toBe("shorter than a RIFF header")
    expect(refusal(new TextEncoder().encode("RIFF....WAVX"))).toBe("no RIFF/WAVE signature")
    expect(refusal(wav.slice(0, wav.length - 1))).toBe("the RIFF size does not match the file size")
    expect(refusal(patched(wav, (v) => v.setUint32(40, 1_000_000, true)))).toBe(
      'the "data" chunk runs past the end of the file'
    )
  })

  it("refuses compressed audio, inconsistent rates and a missing fmt or data chunk", () => {
    expect(refusal(patched(wav, (v) => v.setUint16(20, 3, true)))).toBe("audio format 3 is not PCM")
    expect(refusal(patched(wav, (v) => v.setUint32(28, 8000, true)))).toBe(
      "the fmt chunk's byte rate or block alignment disagrees with its sample format"
    )
    expect(refusal(patched(wav, (v) => v.setUint8(36, "x".charCodeAt(0))))).toBe("no data chunk")
    expect(refusal(patched(wav, (v) => v.setUint8(12, "x".charCodeAt(0))))).toBe(
      "the data chunk comes before the fmt chunk"
    )
    // an odd number of bytes is not a whole number of 16-bit samples
    const odd = patched(wav.slice(0, 44 + 3), (v) => {
      v.setUint32(4, 36 + 3, true)
      v.setUint32(40, 3, true)
    })
    expect(refusal(odd)).toBe("the data chunk does not hold whole sample frames")
  })

  it("skips chunks it does not need, padded to an even size", () => {
    const list = new TextEncoder().encode("LIST\u0003\u0000\u0000\u0000abc\u0000")
    const withList = new Uint8Array(wav.length + list.length)
    withList.set(wav.slice(0, 36))
    withList.set(list, 36)
    withList.set(wav.slice(36), 36 + list.length)
    new DataView(withList.buffer).setUint32(4, withList.length - 8, true)
    expect(parsed(withList)).toMatchObject({ data_offset: 44 + list.length, data_bytes: 8000 })
  })

  it.prop(
    "arbitrary bytes never throw: they parse within the file or are refused",
    [FastCheck.uint8Array({ maxLength: 64 })],
    ([bytes]) => {
      const result = WavFile.parse(bytes)
      expect(
        Either.isLeft(result) || result.right.data_offset + result.right.data_bytes <= bytes.length
      ).toBe(true)
    }
  )
})
