import * as MuLaw from "../../src/twilio/MuLaw.js"

/**
 * Audio for tests, made on the spot (nothing recorded): tones and silence as 8 kHz PCM16 samples, and as
 * the μ-law a caller's phone would send.
 */

/** `ms` milliseconds of a sine at `hz`, amplitude `peak` (of 32767), at 8 kHz. */
export const tone = (hz: number, ms: number, peak = 8000): Int16Array => {
  const samples = new Int16Array(Math.round((MuLaw.sampleRate * ms) / 1000))
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(peak * Math.sin((2 * Math.PI * hz * i) / MuLaw.sampleRate))
  }
  return samples
}

/** `ms` milliseconds of silence at 8 kHz. */
export const silence = (ms: number): Int16Array => new Int16Array(Math.round((MuLaw.sampleRate * ms) / 1000))

/** A tone as the μ-law a phone sends. */
export const mulawTone = (hz: number, ms: number, peak?: number): Uint8Array =>
  MuLaw.encode(tone(hz, ms, peak))
