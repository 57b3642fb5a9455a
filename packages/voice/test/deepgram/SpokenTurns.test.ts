import { describe, expect, it } from "@effect/vitest"
import * as MuLaw from "../../src/twilio/MuLaw.js"
import * as SpokenTurns from "../../testing/deepgram/SpokenTurns.js"
import * as AudioFixtures from "../../testing/twilio/AudioFixtures.js"

/** 8 kHz linear16 little-endian bytes of the samples. */
const pcm = (samples: Int16Array) => MuLaw.pcmOfSamples(samples)

/** Cuts bytes into chunks of `size` (the last shorter). */
const chunks = (bytes: Uint8Array, size: number) => {
  const out: Array<Uint8Array> = []
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size))
  return out
}

describe("SpokenTurns: the fake Deepgram hears utterances in the audio", () => {
  const linear16 = { encoding: "linear16", sample_rate: "8000" }
  const spoken = { texts: ["Hello"], endpointingMs: 200 }

  it("ends an utterance on the chunk that completes the silence after speech, not before", () => {
    const hear = SpokenTurns.listener(spoken, linear16)
    expect(hear(pcm(AudioFixtures.silence(500)))).toBe(0)
    expect(hear(pcm(AudioFixtures.tone(440, 300)))).toBe(0)
    // 200 ms of silence in 20 ms chunks (320 bytes): the tenth ends it
    const after = chunks(pcm(AudioFixtures.silence(400)), 320).map(hear)
    expect(after.indexOf(1)).toBe(9)
    expect(after.reduce((sum, n) => sum + n, 0)).toBe(1)
  })

  it("counts samples split across chunks of odd sizes, and each utterance once", () => {
    const hear = SpokenTurns.listener(spoken, linear16)
    const audio = pcm(
      new Int16Array([
        ...AudioFixtures.tone(440, 100),
        ...AudioFixtures.silence(250),
        ...AudioFixtures.tone(440, 100),
        ...AudioFixtures.silence(150)
      ])
    )
    // the second silence is too short to end the second utterance
    expect(
      chunks(audio, 333)
        .map(hear)
        .reduce((sum, n) => sum + n, 0)
    ).toBe(1)
  })

  it("hears μ-law too", () => {
    const hear = SpokenTurns.listener(spoken, { encoding: "mulaw", sample_rate: "8000" })
    expect(hear(AudioFixtures.mulawTone(440, 100))).toBe(0)
    expect(hear(MuLaw.encode(AudioFixtures.silence(200)))).toBe(1)
  })
})
