import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Stream } from "effect"
import * as MemoryMediaSession from "../../src/voice/MemoryMediaSession.js"
import { TextToSpeech } from "../../src/voice/TextToSpeech.js"
import * as VoiceReply from "../../src/voice/VoiceReply.js"

/**
 * A reply's last sentence is complete only once its text ends; the model's tokens are told (and written
 * to storage by the loop) at that same moment. The sentence is spoken without waiting for that telling:
 * on a loaded database the write would otherwise stand between the caller and the agent's first audio.
 */
describe("VoiceReply.speak", () => {
  it.live("speaks the last sentence before the model's tokens are told, and still tells them", () =>
    Effect.gen(function* () {
      const synthesized = yield* Deferred.make<string>()
      const told: Array<number> = []
      const tts = TextToSpeech.of({
        provider: "test",
        sample_rate: 8000,
        synthesize: (text) =>
          Stream.fromEffect(
            Effect.as(Deferred.succeed(synthesized, text), {
              sample_rate: 8000,
              samples: new Int16Array(160)
            })
          )
      })
      const media = yield* MemoryMediaSession.make()
      const outcome = yield* VoiceReply.speak({
        id: 1,
        media,
        speech: {},
        source: (emit) =>
          Effect.gen(function* () {
            yield* emit({ _tag: "Delta", text: "You said hello" })
            yield* emit({ _tag: "Usage", usage: { prompt_tokens: 12, completion_tokens: 3 } })
            return {
              text: "You said hello",
              tool_calls: [],
              end: null,
              usage: { prompt_tokens: 12, completion_tokens: 3 }
            }
          }),
        // the telling waits until the sentence is being spoken: it never is if the telling comes first
        report: (event) =>
          event._tag === "Usage"
            ? Effect.zipRight(
                Deferred.await(synthesized),
                Effect.sync(() => void told.push(event.usage.prompt_tokens))
              )
            : Effect.void
      }).pipe(Effect.provideService(TextToSpeech, tts), Effect.timeout("5 seconds"))
      expect(outcome.text).toBe("You said hello")
      expect(yield* Deferred.await(synthesized)).toBe("You said hello")
      expect(told).toEqual([12])
      expect((yield* media.sent).map((e) => e._tag)).toContain("Mark")
    })
  )
})
