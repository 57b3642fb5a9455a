import { SpeechToText } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { speechToTextContract } from "@voice-agent-platform/core/testing"
import { Effect, Layer, Redacted } from "effect"
import * as DeepgramSpeechToText from "../../src/deepgram/DeepgramSpeechToText.js"
import * as DeepgramScript from "../../testing/deepgram/DeepgramScript.js"
import * as FakeDeepgram from "../../testing/deepgram/FakeDeepgram.js"

const fake = FakeDeepgram.layer()
const adapter = Layer.effect(
  SpeechToText,
  Effect.flatMap(FakeDeepgram.FakeDeepgram, (server) =>
    DeepgramSpeechToText.make({ url: server.url, apiKey: Redacted.make(server.apiKey) })
  )
)

speechToTextContract("deepgram over the fake", {
  layer: Layer.provideMerge(adapter, fake),
  // five 20 ms frames of silence; the fake "hears" the phrase once they have all come
  utterance: (text, options) =>
    Effect.gen(function* () {
      const server = yield* FakeDeepgram.FakeDeepgram
      const frameBytes =
        options.encoding === "mulaw" ? options.sample_rate / 50 : (options.sample_rate / 50) * 2
      const frames = Array.from({ length: 5 }, () =>
        new Uint8Array(frameBytes).fill(options.encoding === "mulaw" ? 0xff : 0)
      )
      yield* server.script({ steps: [DeepgramScript.utterance(text, frameBytes * 5)] })
      return frames
    })
})
