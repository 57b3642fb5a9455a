import { describe, expect, it } from "@effect/vitest"
import * as TextToSpeech from "@voice-agent-platform/core/voice/TextToSpeech.js"
import * as TextToSpeechErrors from "@voice-agent-platform/core/voice/TextToSpeechErrors.js"
import { Effect, Stream } from "effect"

describe("TextToSpeech", () => {
  let calls = 0
  const synthesize = TextToSpeech.bounded((text) => {
    calls++
    return Stream.make(
      { sample_rate: 8000, samples: Int16Array.of(text.length) },
      { sample_rate: 8000, samples: Int16Array.of(1, 2) }
    )
  })

  it.effect("a text up to the bound is spoken; its chunks collect in order", () =>
    Effect.gen(function* () {
      calls = 0
      const text = "a".repeat(TextToSpeech.maxTextLength)
      expect(yield* TextToSpeech.collectSamples(synthesize(text))).toEqual(
        Int16Array.of(TextToSpeech.maxTextLength, 1, 2)
      )
      expect(calls).toBe(1)
    })
  )

  it.effect("past the bound: SpeechTextTooLong, nothing sent; a blank text: nothing at all", () =>
    Effect.gen(function* () {
      calls = 0
      const error = yield* Effect.flip(
        TextToSpeech.collectSamples(synthesize("a".repeat(TextToSpeech.maxTextLength + 1)))
      )
      expect(error).toEqual(
        new TextToSpeechErrors.SpeechTextTooLong({ length: 4097, max: TextToSpeech.maxTextLength })
      )
      expect(error.message).toContain("4097 characters")
      expect((yield* TextToSpeech.collectSamples(synthesize(" \n "))).length).toBe(0)
      expect(calls).toBe(0)
    })
  )

  it("transient errors: unavailable, rate limited, deadline", () => {
    expect(TextToSpeechErrors.isTransient(new TextToSpeechErrors.SpeechUnavailable({ reason: "x" }))).toBe(
      true
    )
    expect(
      TextToSpeechErrors.isTransient(
        new TextToSpeechErrors.SpeechDeadline({ phase: "overall", timeout_ms: 1 })
      )
    ).toBe(true)
    expect(TextToSpeechErrors.isTransient(new TextToSpeechErrors.SpeechRefused({ reason: "x" }))).toBe(false)
    expect(
      TextToSpeechErrors.isTransient(new TextToSpeechErrors.SpeechTextTooLong({ length: 5000, max: null }))
    ).toBe(false)
  })
})
