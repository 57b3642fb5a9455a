import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Stream } from "effect"
import * as EmbeddedSpeechToText from "../../src/voice/EmbeddedSpeechToText.js"
import { phoneAudio } from "../../src/voice/SpeechToText.js"
import { speechToTextContract } from "../../testing/SpeechToTextContract.js"

speechToTextContract("embedded", {
  layer: EmbeddedSpeechToText.layer,
  utterance: (text) => Effect.succeed([EmbeddedSpeechToText.textFrame(text)])
})

describe("EmbeddedSpeechToText", () => {
  it("reads back a text frame's words, and no words from audio", () => {
    expect(EmbeddedSpeechToText.textOfFrame(EmbeddedSpeechToText.textFrame("Zażółć gęślą jaźń"))).toBe(
      "Zażółć gęślą jaźń"
    )
    expect(EmbeddedSpeechToText.textOfFrame(new Uint8Array(160).fill(0xff))).toBeNull()
    expect(EmbeddedSpeechToText.textOfFrame(new Uint8Array(0))).toBeNull()
  })

  it("hears words as a provider would: growing interims, the final marked speech_final, an utterance end", () => {
    expect(EmbeddedSpeechToText.eventsOf(" yes  please ")).toEqual([
      { _tag: "Interim", text: "yes" },
      { _tag: "Final", text: "yes please", speech_final: true },
      { _tag: "UtteranceEnd" }
    ])
    expect(EmbeddedSpeechToText.eventsOf("   ")).toEqual([])
  })

  it.effect("recognises no real speech: audio frames give no events", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const session = yield* EmbeddedSpeechToText.make.open({ language: "en", ...phoneAudio })
        const reading = yield* Effect.fork(Stream.runCollect(session.events))
        for (let frame = 0; frame < 50; frame++) {
          yield* session.send(new Uint8Array(160).map((_, index) => (index * 37 + frame) % 256))
        }
        yield* session.finish
        expect(Chunk.toReadonlyArray(yield* Fiber.join(reading))).toEqual([])
      })
    )
  )
})
