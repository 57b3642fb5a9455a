/**
 * PCM16 sample-rate conversion (a provider's 24 or 16 kHz to the carrier's 8 kHz, and back up), streamed:
 * chunks go in as they arrive and what they complete comes out, the filter's history carried from one
 * chunk to the next so that chunk boundaries leave no clicks. Band-limited interpolation: each output
 * sample is the input convolved with a Blackman-windowed sinc low-pass whose cutoff is below the lower of
 * the two Nyquist frequencies (no aliasing when rates go down), its weights precomputed per phase (a
 * rational ratio has `to / gcd(from, to)` of them: one for 24 kHz → 8 kHz).
 *
 * Why not a package: the well-kept ones (`wave-resampler`, `@alexanderolsen/libsamplerate-js`) convert a
 * whole buffer at a time (the first) or need WebAssembly (the second); a stream cut at every network read
 * needs carried state, which this is, in a hundred lines.
 */

/** The rates accepted, in samples per second. */
export const minRate = 1000
export const maxRate = 384_000

/** Zero crossings of the sinc on each side of the centre: the filter's sharpness. */
const zeroCrossings = 16
/** The cutoff as a share of the lower Nyquist frequency (the rest is the transition band). */
const rolloff = 0.9

export interface Resampler {
  readonly from: number
  readonly to: number
  /** The output samples the input so far completes (later ones wait for input after them). */
  readonly push: (samples: Int16Array) => Int16Array
  /** The remaining output samples, the input taken to end with silence; the resampler starts afresh. */
  readonly flush: () => Int16Array
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

const isRate = (rate: number) => Number.isInteger(rate) && rate >= minRate && rate <= maxRate

/** How many output samples `length` input samples give: one for each output instant within the input. */
export const outputLength = (length: number, from: number, to: number): number =>
  Math.ceil((length * to) / from)

/** A streaming resampler from `from` to `to` samples per second (whole numbers from 1000 to 384000). */
export const make = (from: number, to: number): Resampler => {
  if (!isRate(from) || !isRate(to)) {
    throw new RangeError(`sample rates must be whole numbers from ${minRate} to ${maxRate}`)
  }
  const divisor = gcd(from, to)
  const step = from / divisor // input samples advanced per output sample, in units of 1/phases
  const phases = to / divisor
  // the cutoff in cycles per input sample, relative to the input's Nyquist frequency
  const cutoff = Math.min(1, to / from) * rolloff
  const half = Math.ceil(zeroCrossings / cutoff)
  const taps = 2 * half
  // weights[phase * taps + k] multiplies input (base - half + 1 + k) for an output at base + phase / phases
  const weights = new Float64Array(phases * taps)
  for (let phase = 0; phase < phases; phase++) {
    const fraction = phase / phases
    let sum = 0
    for (let k = 0; k < taps; k++) {
      const x = k - half + 1 - fraction
      const w = windowedSinc(x, cutoff, half)
      weights[phase * taps + k] = w
      sum += w
    }
    // unity gain at 0 Hz for every phase
    for (let k = 0; k < taps; k++) weights[phase * taps + k]! /= sum
  }

  // input samples from index `start` on; the input before 0 is silence
  let history = new Float64Array(half)
  let start = -half
  let received = 0
  let emitted = 0 // output samples given so far

  /** The outputs whose inputs (to `base + half`) are below `available`, the rest of the input silence. */
  const emit = (available: number): Int16Array => {
    // at most one output for each `step` of the input received and not yet passed, written in place
    const out = new Int16Array(Math.max(0, Math.ceil((received * phases - emitted * step) / step)))
    let count = 0
    for (;;) {
      // output n sits at input n * step / phases
      const position = emitted * step
      const base = Math.floor(position / phases)
      if (position >= received * phases || base + half >= available) break
      const row = (position - base * phases) * taps
      const first = base - half + 1 - start
      // the taps over the input held (the input after it is silence)
      const end = Math.min(taps, history.length - first)
      let sum = 0
      for (let k = Math.max(0, -first); k < end; k++) sum += weights[row + k]! * history[first + k]!
      out[count++] = Math.max(-32768, Math.min(32767, Math.round(sum)))
      emitted++
    }
    // drop the input no later output needs
    const needed = Math.floor((emitted * step) / phases) - half + 1
    if (needed > start) {
      const dropped = Math.min(history.length, needed - start)
      history = history.slice(dropped)
      start += dropped
    }
    return out.subarray(0, count)
  }

  return {
    from,
    to,
    push: (samples) => {
      const joined = new Float64Array(history.length + samples.length)
      joined.set(history)
      for (let i = 0; i < samples.length; i++) joined[history.length + i] = samples[i]!
      history = joined
      received += samples.length
      return emit(received)
    },
    flush: () => {
      const rest = emit(Number.POSITIVE_INFINITY)
      history = new Float64Array(half)
      start = -half
      received = 0
      emitted = 0
      return rest
    }
  }
}

/** A whole signal resampled at once. */
export const resample = (samples: Int16Array, from: number, to: number): Int16Array => {
  const resampler = make(from, to)
  const head = resampler.push(samples)
  const tail = resampler.flush()
  const all = new Int16Array(head.length + tail.length)
  all.set(head)
  all.set(tail, head.length)
  return all
}

/** The low-pass's weight at `x` input samples from the centre (a Blackman window `half` samples wide). */
const windowedSinc = (x: number, cutoff: number, half: number): number => {
  if (Math.abs(x) >= half) return 0
  const sinc = x === 0 ? cutoff : Math.sin(Math.PI * cutoff * x) / (Math.PI * x)
  const t = (x + half) / (2 * half)
  const window = 0.42 - 0.5 * Math.cos(2 * Math.PI * t) + 0.08 * Math.cos(4 * Math.PI * t)
  return sinc * window
}
