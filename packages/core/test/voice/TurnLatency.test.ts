import { describe, expect, it } from "@effect/vitest"
import * as TurnLatency from "../../src/voice/TurnLatency.js"
import * as VoiceLoopSettings from "../../src/voice/VoiceLoopSettings.js"
import * as VoicePhrases from "../../src/voice/VoicePhrases.js"

describe("TurnLatency", () => {
  it("measures each step from the moment the caller stopped; a step not reached is null", () => {
    expect(
      TurnLatency.of({
        turn: 2,
        callerStopped: 10_000,
        transcriptFinal: 10_300,
        firstToken: 10_700,
        firstAudio: 10_950,
        firstFrame: 10_960
      })
    ).toEqual({
      turn: 2,
      caller_stopped_at: new Date(10_000),
      transcript_final_ms: 300,
      first_token_ms: 700,
      first_audio_ms: 950,
      first_frame_ms: 960
    })
    expect(
      TurnLatency.of({
        turn: 1,
        callerStopped: 5,
        transcriptFinal: 5,
        firstToken: 9,
        firstAudio: null,
        firstFrame: null
      })
    ).toMatchObject({ transcript_final_ms: 0, first_token_ms: 4, first_audio_ms: null, first_frame_ms: null })
  })
})

describe("VoicePhrases and VoiceLoopSettings", () => {
  it("speaks the agent's language, English otherwise", () => {
    expect(VoicePhrases.of("pl-PL")).toEqual(VoicePhrases.of("pl"))
    expect(VoicePhrases.of("pl").reprompt).not.toBe(VoicePhrases.of("en").reprompt)
    expect(VoicePhrases.of("xx")).toEqual(VoicePhrases.of("en"))
    expect(VoicePhrases.of("EN_gb")).toEqual(VoicePhrases.of("en"))
  })

  it("VOICE_SILENCE_SECONDS defaults to 10 and takes whole seconds from 2 to 600", () => {
    expect(VoiceLoopSettings.defaults.silenceSeconds).toBe(10)
    expect([1, 2, 10, 600, 601, 2.5].map(VoiceLoopSettings.isValidSilenceSeconds)).toEqual([
      false,
      true,
      true,
      true,
      false,
      false
    ])
  })
})
