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

/** 20 ms of μ-law silence. */
export const silentFrame = () => new Uint8Array(160).fill(0xff)
