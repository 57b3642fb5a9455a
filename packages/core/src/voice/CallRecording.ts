import * as WavFile from "../calls/WavFile.js"

/**
 * A real call's recording: both sides on one timeline, mixed into one WAV at the end. The caller's audio
 * arrives in real time (the carrier sends 20 ms frames as they are spoken), so its length is the call's
 * clock: the agent's audio is placed where it was sent — or, when audio is still queued, right after it —
 * and a `clear` (barge-in) cuts what was queued past that moment, as the carrier dropped it unplayed.
 * Each side is kept whole for the mix; the mix is the sum of the two, clipped to 16 bits. At most
 * `WavFile.maxSeconds` are kept.
 */

/** A growable track of PCM16 samples. */
class Track {
  samples = new Int16Array(8000)
  length = 0

  ensure(length: number) {
    if (length <= this.samples.length) return
    let size = this.samples.length
    while (size < length) size *= 2
    const grown = new Int16Array(size)
    grown.set(this.samples.subarray(0, this.length))
    this.samples = grown
  }

  writeAt(offset: number, samples: Int16Array, limit: number) {
    const end = Math.min(offset + samples.length, limit)
    if (end <= offset) return
    this.ensure(end)
    this.samples.set(samples.subarray(0, end - offset), offset)
    this.length = Math.max(this.length, end)
  }

  cutAt(offset: number) {
    if (offset >= this.length) return
    this.samples.fill(0, offset, this.length)
    this.length = offset
  }
}

export interface CallRecording {
  /** Caller audio heard (PCM16 at the recording's rate). */
  readonly caller: (samples: Int16Array) => void
  /** Agent audio sent (PCM16 at the recording's rate). */
  readonly agent: (samples: Int16Array) => void
  /** The agent's queued audio was dropped (a barge-in): what lies past the caller's clock is cut. */
  readonly clear: () => void
  /** Seconds recorded so far (the longer side). */
  readonly seconds: () => number
  /** Both sides mixed, as a WAV file. */
  readonly wav: () => Uint8Array
}

export const make = (sampleRate: number = WavFile.sampleRate): CallRecording => {
  const limit = WavFile.maxSeconds * sampleRate
  const caller = new Track()
  const agent = new Track()
  // where the next agent audio goes: after what is queued, never before the caller's clock
  let agentAt = 0
  return {
    caller: (samples) => caller.writeAt(caller.length, samples, limit),
    agent: (samples) => {
      agentAt = Math.max(agentAt, caller.length)
      agent.writeAt(agentAt, samples, limit)
      agentAt = Math.min(agentAt + samples.length, limit)
    },
    clear: () => {
      agent.cutAt(caller.length)
      agentAt = caller.length
    },
    seconds: () => Math.max(caller.length, agent.length) / sampleRate,
    wav: () => {
      const length = Math.max(caller.length, agent.length)
      const mixed = new Int16Array(length)
      for (let i = 0; i < length; i++) {
        const sum = (i < caller.length ? caller.samples[i]! : 0) + (i < agent.length ? agent.samples[i]! : 0)
        mixed[i] = sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum
      }
      return WavFile.fromSamples(mixed, sampleRate)
    }
  }
}
