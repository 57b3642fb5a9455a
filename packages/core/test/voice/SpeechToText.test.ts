import { describe, expect, it } from "@effect/vitest"
import { emptyTurn, endsTurn, hear, type TranscriptEvent } from "../../src/voice/SpeechToText.js"
import {
  isTransient,
  SpeechToTextDeadline,
  SpeechToTextDropped,
  SpeechToTextRefused,
  SpeechToTextUnavailable
} from "../../src/voice/SpeechToTextErrors.js"

const turns = (events: ReadonlyArray<TranscriptEvent>) => {
  const heard: Array<string> = []
  let turn = emptyTurn
  for (const event of events) {
    const [next, ended] = hear(turn, event)
    turn = next
    if (ended !== null) heard.push(ended)
  }
  return { heard, pending: turn.finals }
}

describe("SpeechToText turns", () => {
  it("a turn ends at a speech_final final or an utterance end, not at an interim or a plain final", () => {
    expect(endsTurn({ _tag: "Interim", text: "hel" })).toBe(false)
    expect(endsTurn({ _tag: "Final", text: "hello", speech_final: false })).toBe(false)
    expect(endsTurn({ _tag: "Final", text: "hello", speech_final: true })).toBe(true)
    expect(endsTurn({ _tag: "UtteranceEnd" })).toBe(true)
  })

  it("joins a turn's final words, ignores interims, and hears a doubled end once", () => {
    expect(
      turns([
        { _tag: "Interim", text: "I'd" },
        { _tag: "Final", text: "I'd like", speech_final: false },
        { _tag: "Interim", text: "a table" },
        { _tag: "Final", text: " a table ", speech_final: true },
        { _tag: "UtteranceEnd" },
        { _tag: "Final", text: "for two", speech_final: false },
        { _tag: "UtteranceEnd" },
        { _tag: "Final", text: "", speech_final: true },
        { _tag: "Interim", text: "and" }
      ])
    ).toEqual({ heard: ["I'd like a table", "for two"], pending: [] })
    expect(turns([{ _tag: "Final", text: "still talking", speech_final: false }])).toEqual({
      heard: [],
      pending: ["still talking"]
    })
  })
})

describe("SpeechToText errors", () => {
  it("name their kind in the message; only a refusal is not worth trying again", () => {
    const refused = new SpeechToTextRefused({ reason: "the provider did not accept the key", status: 401 })
    const deadline = new SpeechToTextDeadline({ step: "connect", timeout_ms: 5000 })
    const dropped = new SpeechToTextDropped({ reason: "the connection was lost", close_code: 1006 })
    const unavailable = new SpeechToTextUnavailable({ reason: "the provider failed (503)" })
    expect(refused.message).toBe("speech_to_text_refused: the provider did not accept the key")
    expect(deadline.message).toBe("speech_to_text_deadline: the connection did not come within 5000 ms")
    expect(new SpeechToTextDeadline({ step: "finish", timeout_ms: 10 }).message).toBe(
      "speech_to_text_deadline: the last results did not come within 10 ms"
    )
    expect(dropped.message).toBe("speech_to_text_dropped: the connection was lost")
    expect(unavailable.message).toBe("speech_to_text_unavailable: the provider failed (503)")
    expect([refused, deadline, dropped, unavailable].map(isTransient)).toEqual([false, true, true, true])
  })
})
