import { describe, expect, it } from "@effect/vitest"
import * as Resampling from "@voice-agent-platform/core/voice/Resampling.js"

const tone = (frequency: number, rate: number, seconds: number, amplitude = 10_000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / rate))
  )

/** The frequency of a tone, from its rising zero crossings over its middle (the edges fade in and out). */
const frequencyOf = (samples: Int16Array, rate: number) => {
  const from = Math.floor(samples.length * 0.1)
  const to = Math.floor(samples.length * 0.9)
  const crossings: Array<number> = []
  for (let i = from; i < to; i++) {
    const a = samples[i - 1]!
    const b = samples[i]!
    if (a < 0 && b >= 0) crossings.push(i - 1 + -a / (b - a))
  }
  return ((crossings.length - 1) * rate) / (crossings[crossings.length - 1]! - crossings[0]!)
}

const rms = (samples: Int16Array) => {
  const from = Math.floor(samples.length * 0.1)
  const to = Math.floor(samples.length * 0.9)
  let sum = 0
  for (let i = from; i < to; i++) sum += samples[i]! ** 2
  return Math.sqrt(sum / (to - from))
}

describe("Resampling", () => {
  it.each([
    [24_000, 8_000],
    [16_000, 8_000],
    [8_000, 16_000],
    [24_000, 16_000]
  ])("%i Hz → %i Hz keeps the length and a 440 Hz tone's frequency and level", (from, to) => {
    const input = tone(440, from, 1)
    const output = Resampling.resample(input, from, to)
    expect(output.length).toBe(to)
    expect(Math.abs(frequencyOf(output, to) - 440)).toBeLessThan(440 * 0.005)
    expect(rms(output) / rms(input)).toBeGreaterThan(0.97)
    expect(rms(output) / rms(input)).toBeLessThan(1.03)
  })

  it("the length is one output sample per output instant within the input", () => {
    expect(Resampling.resample(new Int16Array(2401), 24_000, 8_000).length).toBe(801)
    expect(Resampling.outputLength(2400, 24_000, 8_000)).toBe(800)
    expect(Resampling.outputLength(1, 16_000, 8_000)).toBe(1)
    expect(Resampling.resample(new Int16Array(0), 24_000, 8_000).length).toBe(0)
  })

  it("a tone above the new Nyquist frequency is filtered out, not folded down (24 kHz → 8 kHz)", () => {
    // 5 kHz would alias to 3 kHz at 8 kHz
    const output = Resampling.resample(tone(5000, 24_000, 1), 24_000, 8_000)
    expect(rms(output)).toBeLessThan(10_000 * 0.01)
  })

  it("streamed in uneven chunks, the output is the same as at once", () => {
    const input = tone(1000, 24_000, 0.5)
    const whole = Resampling.resample(input, 24_000, 8_000)
    const resampler = Resampling.make(24_000, 8_000)
    const parts: Array<number> = []
    const sizes = [1, 2, 7, 480, 1, 3333, 5]
    let at = 0
    for (let i = 0; at < input.length; i++) {
      const size = sizes[i % sizes.length]!
      parts.push(...resampler.push(input.subarray(at, at + size)))
      at += size
    }
    parts.push(...resampler.flush())
    expect(Int16Array.from(parts)).toEqual(whole)
    // after a flush it starts afresh
    expect(Resampling.resample(input, 24_000, 8_000)).toEqual(
      Int16Array.from([...resampler.push(input), ...resampler.flush()])
    )
  })

  it("full-scale input stays within PCM16 and silence stays silent", () => {
    const square = Int16Array.from({ length: 4800 }, (_, i) =>
      Math.floor(i / 12) % 2 === 0 ? 32767 : -32768
    )
    const output = Resampling.resample(square, 24_000, 8_000)
    expect(output.every((sample) => sample >= -32768 && sample <= 32767)).toBe(true)
    expect(Resampling.resample(new Int16Array(960), 16_000, 8_000).every((sample) => sample === 0)).toBe(true)
  })

  it("refuses rates that are not whole numbers in range", () => {
    expect(() => Resampling.make(0, 8000)).toThrow(RangeError)
    expect(() => Resampling.make(24_000, 8000.5)).toThrow(RangeError)
    expect(() => Resampling.make(24_000, 1_000_000)).toThrow(RangeError)
  })
})
