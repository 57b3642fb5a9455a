import type { SpeechToText } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { Effect, Redacted } from "effect"
import * as DeepgramSpeechToText from "../../src/deepgram/DeepgramSpeechToText.js"
import type { FakeDeepgram } from "../../testing/deepgram/FakeDeepgram.js"

/** The adapter over a fake, with its key and short bounds unless told otherwise. */
export const adapterOver = (
  fake: FakeDeepgram,
  options: Partial<DeepgramSpeechToText.Options> = {}
): Effect.Effect<SpeechToText["Type"], DeepgramSpeechToText.InvalidOptions> =>
  DeepgramSpeechToText.make({
    url: fake.url,
    apiKey: Redacted.make(fake.apiKey),
    connectTimeoutMs: 2000,
    finishTimeoutMs: 2000,
    ...options
  })

/** Polls `check` every 10 ms until it holds, at most `withinMs` (then the last answer, for the assertion). */
export const eventually = <A>(read: Effect.Effect<A>, check: (value: A) => boolean, withinMs = 5000) =>
  Effect.gen(function* () {
    const until = Date.now() + withinMs
    let value = yield* read
    while (!check(value) && Date.now() < until) {
      yield* Effect.sleep("10 millis")
      value = yield* read
    }
    return value
  })

/** 20 ms of μ-law silence. */
export const silentFrame = () => new Uint8Array(160).fill(0xff)
