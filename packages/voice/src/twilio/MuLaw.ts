import alawmulaw from "alawmulaw"

/**
 * G.711 μ-law, the audio of Twilio Media Streams (8 kHz mono, one byte a sample), to and from linear
 * 16-bit PCM, the engine's audio inside. The codec is `alawmulaw`'s (ITU-T G.711), not tables of our own.
 * PCM travels as bytes (little-endian, as in a WAV file) or as samples.
 */

const { mulaw } = alawmulaw

/** Twilio's rate: 8000 samples a second. */
export const sampleRate = 8000

/** Bytes of μ-law in one 20 ms frame, what Twilio sends in each `media` message. */
export const frameBytes = 160

/** PCM samples to μ-law bytes. */
export const encode = (samples: Int16Array): Uint8Array => mulaw.encode(samples)

/** μ-law bytes to PCM samples. */
export const decode = (bytes: Uint8Array): Int16Array => mulaw.decode(bytes)

/** Little-endian 16-bit PCM bytes to samples (an odd last byte is dropped). */
export const samplesOfPcm = (pcm: Uint8Array): Int16Array => {
  const count = Math.floor(pcm.byteLength / 2)
  const view = new DataView(pcm.buffer, pcm.byteOffset, count * 2)
  const samples = new Int16Array(count)
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true)
  return samples
}

/** Samples to little-endian 16-bit PCM bytes. */
export const pcmOfSamples = (samples: Int16Array): Uint8Array => {
  const bytes = new Uint8Array(samples.length * 2)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true)
  return bytes
}

/** Little-endian 16-bit PCM at 8 kHz to μ-law. */
export const fromPcm = (pcm: Uint8Array): Uint8Array => encode(samplesOfPcm(pcm))

/** μ-law to little-endian 16-bit PCM at 8 kHz. */
export const toPcm = (bytes: Uint8Array): Uint8Array => pcmOfSamples(decode(bytes))

/** μ-law cut into 20 ms frames (the last may be shorter). */
export const frames = (bytes: Uint8Array): ReadonlyArray<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let offset = 0; offset < bytes.byteLength; offset += frameBytes) {
    out.push(bytes.subarray(offset, Math.min(offset + frameBytes, bytes.byteLength)))
  }
  return out
}
