/** A test server whose language model is the OpenAI-compatible adapter over the fake server. */
import { InMemory } from "@voice-agent-platform/core"
import { OpenAiCompatible } from "@voice-agent-platform/language-models"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect, Layer, Redacted } from "effect"
import { serverOver } from "./TestServer.js"

/** The key the engine sends the fake server. */
export const modelKey = "sk-test-0123456789abcdefghijklmnopqrstuvwxyz"

/** The model the engine names. */
export const modelName = "fake-model-1"

/**
 * The test server over the in-memory engine, its language model the OpenAI-compatible adapter over a fake
 * server started for the layer (and stopped with it), which tests reach as `FakeOpenAiServer`.
 */
export const fakeModelServer = Layer.unwrapScoped(
  Effect.map(FakeOpenAiServer.start, (fake) =>
    serverOver(
      InMemory.layerWithModel(
        Layer.orDie(
          OpenAiCompatible.layer({
            baseUrl: fake.baseUrl,
            apiKey: Redacted.make(modelKey),
            model: modelName,
            timeoutMs: 5_000
          })
        )
      )
    ).pipe(Layer.provideMerge(Layer.succeed(FakeOpenAiServer.FakeOpenAiServer, fake)))
  )
)
