import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as MuLaw from "../../src/twilio/MuLaw.js"
import { AudioFixtures } from "../../testing/index.js"

/**
 * μ-law keeps about 13 bits of the magnitude: a sample comes back within half of its segment's step,
 * which grows with the magnitude (2 near zero, 512 near full scale). Bound: 4 + |x| / 16.
 */
const withinMuLawError = (original: number, decoded: number) =>
  Math.abs(original - decoded) <= 4 + Math.abs(original) / 16

describe("MuLaw", () => {
  it("turns a tone into one byte a sample and back within μ-law's error", () => {
    const tone = AudioFixtures.tone(440, 200)
    const encoded = MuLaw.encode(tone)
    expect(encoded.byteLength).toBe(1600)
    const decoded = MuLaw.decode(encoded)
    expect(decoded.length).toBe(tone.length)
    tone.forEach((sample, index) => expect(withinMuLawError(sample, decoded[index]!)).toBe(true))
  })

  it("round-trips little-endian PCM bytes", () => {
    const samples = Int16Array.from([0, 1, -1, 255, -256, 1000, -1000, 32767, -32768])
    const pcm = MuLaw.pcmOfSamples(samples)
    expect([...pcm.subarray(0, 4)]).toEqual([0, 0, 1, 0])
    expect(Array.from(MuLaw.samplesOfPcm(pcm))).toEqual(Array.from(samples))
    const back = MuLaw.samplesOfPcm(MuLaw.toPcm(MuLaw.fromPcm(pcm)))
    samples.forEach((sample, index) => expect(withinMuLawError(sample, back[index]!)).toBe(true))
  })

  it("encodes silence as μ-law's zero (0xFF) and reads it back as zero", () => {
    const encoded = MuLaw.encode(AudioFixtures.silence(20))
    expect(encoded.byteLength).toBe(MuLaw.frameBytes)
    expect(encoded.every((byte) => byte === 0xff)).toBe(true)
    expect(MuLaw.decode(encoded).every((sample) => sample === 0)).toBe(true)
  })

  it("cuts μ-law into 20 ms frames", () => {
    const frames = MuLaw.frames(new Uint8Array(400))
    expect(frames.map((frame) => frame.byteLength)).toEqual([160, 160, 80])
  })

  it.prop(
    "any sample comes back within μ-law's error",
    [FastCheck.integer({ min: -32768, max: 32767 })],
    ([sample]) => {
      const back = MuLaw.decode(MuLaw.encode(Int16Array.from([sample])))[0]!
      expect(withinMuLawError(sample, back)).toBe(true)
    }
  )

  it.prop(
    "decoding is stable: μ-law → PCM → μ-law gives the same bytes",
    [FastCheck.integer({ min: 0, max: 255 })],
    ([byte]) => {
      const once = MuLaw.decode(Uint8Array.from([byte]))
      const again = MuLaw.encode(once)[0]!
      expect(MuLaw.decode(Uint8Array.from([again]))[0]).toBe(once[0])
    }
  )
})
