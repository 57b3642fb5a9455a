import { createServer } from "node:net"
import type { ModelEvent } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { OpenAiCompatible } from "@voice-agent-platform/language-models"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Chunk, Effect, Layer, Logger, Redacted, Schedule, Stream } from "effect"

/** The key the adapters under test send. */
export const testKey = "sk-test-0123456789abcdefghijklmnopqrstuv"

/** The file's fake server with nothing queued or recorded. */
export const freshFake = Effect.tap(FakeOpenAiServer.FakeOpenAiServer, (fake) => fake.reset)

/** The adapter pointed at the fake server, with a key and `fake-model` unless `options` say otherwise. */
export const adapterOver = (fake: FakeOpenAiServer.Running, options: OpenAiCompatible.Options = {}) =>
  Effect.orDie(
    OpenAiCompatible.make({
      baseUrl: fake.baseUrl,
      apiKey: Redacted.make(testKey),
      model: "fake-model",
      ...options
    })
  )

/** Every event of a stream. */
export const collect = <E>(stream: Stream.Stream<ModelEvent, E>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

/** The last request the fake received. */
export const lastRequest = (fake: FakeOpenAiServer.Running) =>
  Effect.map(fake.requests, (requests) => requests[requests.length - 1]!)

/**
 * Waits (on the real clock, at most 5 s) until the fake saw the client close the last request's
 * connection before its answer ended: the adapter aborted it.
 */
export const abortSeen = (fake: FakeOpenAiServer.Running) =>
  lastRequest(fake).pipe(
    Effect.filterOrFail((request) => request.client_closed),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 250 }),
    Effect.as(true),
    Effect.orElseSucceed(() => false)
  )

/** A loopback port nobody listens on right now. */
export const unusedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() =>
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
    )
  })
})

/**
 * The fake server for tests on the real clock (no TestClock: the fake writes in real time), with the
 * warnings of failed requests kept out of the test output as the test services keep them.
 */
export const liveFakeLayer = Layer.merge(FakeOpenAiServer.layer, Logger.remove(Logger.defaultLogger))
