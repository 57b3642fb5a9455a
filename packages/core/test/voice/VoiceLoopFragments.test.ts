import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Ref } from "effect"
import type { ModelRequest } from "../../src/language-model/LanguageModel.js"
import { ModelScript, text } from "../conversation/ScriptedModel.js"
import * as VoiceLoopTesting from "./VoiceLoopTesting.js"
import { untilMark } from "./VoiceLoopTesting.js"

/** Whether the model has been asked with the caller's `words`. */
const asked = (script: ModelScript, words: string) =>
  Effect.gen(function* () {
    const sent = yield* script.requests
    return sent.some(
      (s) =>
        s.kind === "stream" &&
        (s.request as ModelRequest).messages.some((m) => m.role === "user" && m.content === words)
    )
  })

/**
 * The caller's words are written to the transcript while the model is asked, not before: that write goes
 * to storage, and on a loaded database it would stand between the caller and the agent's answer.
 */
describe("VoiceLoop's transcript on a slow storage", () => {
  it.effect("asks the model before the caller's fragment is written, and writes it before the reply's", () =>
    Effect.gen(function* () {
      const words = "a table for two tonight"
      const script = yield* ModelScript
      // the caller's fragment is written only once the model has been asked: never, if asking waited for it
      const call = yield* VoiceLoopTesting.start({
        onFragment: (fragment) =>
          fragment.role !== "user"
            ? Effect.void
            : Effect.gen(function* () {
                for (let i = 0; i < 10_000; i++) {
                  if (yield* asked(script, words)) return
                  yield* Effect.yieldNow()
                }
                return yield* Effect.dieMessage("the model was not asked while the fragment was written")
              })
      })
      yield* untilMark(call.media, "1.2")
      yield* script.push(text("We have a table at eight."))
      yield* call.media.say(words)
      yield* untilMark(call.media, "2.1")
      for (let i = 0; i < 1000 && (yield* Ref.get(call.fragments)).length < 3; i++) yield* Effect.yieldNow()
      expect((yield* Ref.get(call.fragments)).map((f) => `${f.role}: ${f.text}`)).toEqual([
        "assistant: Hello, this is Ada. How can I help?",
        `user: ${words}`,
        "assistant: We have a table at eight."
      ])
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )
})
