import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as DeepgramMessages from "../../src/deepgram/DeepgramMessages.js"
import * as DeepgramScript from "../../testing/deepgram/DeepgramScript.js"

const read = (message: unknown) =>
  DeepgramMessages.eventOf(typeof message === "string" ? message : JSON.stringify(message))

describe("Deepgram's messages", () => {
  it("reads interims, finals (with speech_final) and utterance ends, trimmed", () => {
    expect(read(DeepgramScript.results(" hel "))).toEqual(Either.right({ _tag: "Interim", text: "hel" }))
    expect(read(DeepgramScript.results("hello", { is_final: true }))).toEqual(
      Either.right({ _tag: "Final", text: "hello", speech_final: false })
    )
    expect(read(DeepgramScript.results("hello", { is_final: true, speech_final: true }))).toEqual(
      Either.right({ _tag: "Final", text: "hello", speech_final: true })
    )
    expect(read(DeepgramScript.utteranceEnd())).toEqual(Either.right({ _tag: "UtteranceEnd" }))
  })

  it("skips empty interims and empty finals that end nothing, keeps an empty speech_final", () => {
    expect(read(DeepgramScript.results(""))).toEqual(Either.right(null))
    expect(read(DeepgramScript.results("  ", { is_final: true }))).toEqual(Either.right(null))
    expect(read(DeepgramScript.results("", { is_final: true, speech_final: true }))).toEqual(
      Either.right({ _tag: "Final", text: "", speech_final: true })
    )
    const noAlternatives = { type: "Results", is_final: false, channel: { alternatives: [] } }
    expect(read(noAlternatives)).toEqual(Either.right(null))
  })

  it("skips types it does not use (Metadata, SpeechStarted, new ones)", () => {
    expect(read(DeepgramScript.metadata())).toEqual(Either.right(null))
    expect(read(DeepgramScript.speechStarted())).toEqual(Either.right(null))
    expect(read({ type: "SomethingNew" })).toEqual(Either.right(null))
  })

  it("a frame that is not the protocol is SpeechToTextUnavailable, repeating none of the provider's words", () => {
    const cases: ReadonlyArray<unknown> = [
      "{not json",
      "[1,2]",
      "null",
      { no: "type" },
      { type: "Results", is_final: "yes", channel: { alternatives: [] } },
      { type: "Results", is_final: true },
      { type: "Error", description: "secret words dg-key-123", message: "dg-key-123" }
    ]
    for (const message of cases) {
      const event = read(message)
      expect(Either.isLeft(event), JSON.stringify(message)).toBe(true)
      if (Either.isLeft(event)) {
        expect(event.left._tag).toBe("SpeechToTextUnavailable")
        expect(event.left.message).not.toContain("dg-key-123")
      }
    }
  })

  it("sends KeepAlive and CloseStream as Deepgram names them", () => {
    expect(JSON.parse(DeepgramMessages.keepAlive)).toEqual({ type: "KeepAlive" })
    expect(JSON.parse(DeepgramMessages.closeStream)).toEqual({ type: "CloseStream" })
  })
})
