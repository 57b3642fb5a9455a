import { expect, layer } from "@effect/vitest"
import { collectSamples } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { OpenAiSpeech } from "@voice-agent-platform/voice"
import { FakeSpeechServer, SpeechFakeWaits, SpeechPattern } from "@voice-agent-platform/voice/testing"
import { Chunk, Deferred, Effect, Fiber, Redacted, Stream } from "effect"

const text = "Dzień dobry, this is the agent speaking."
const expected = SpeechPattern.samplesFor(text, 24_000)

const fresh = Effect.tap(FakeSpeechServer.FakeSpeechServer, (fake) => fake.reset)
const adapterOver = (fake: FakeSpeechServer.Running, options: OpenAiSpeech.Options = {}) =>
  Effect.orDie(
    OpenAiSpeech.make({
      baseUrl: fake.openAiBaseUrl,
      apiKey: Redacted.make(FakeSpeechServer.openAiKey),
      model: "tts-fake",
      ...options
    })
  )

layer(FakeSpeechServer.layer, { timeout: "60 seconds", excludeTestServices: true })("OpenAiSpeech", (it) => {
  it.effect("posts the OpenAI request and streams 24 kHz chunks that join to the spoken PCM", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake)
      expect(speech.sample_rate).toBe(24_000)
      const chunks = Chunk.toReadonlyArray(yield* Stream.runCollect(speech.synthesize(text)))
      expect(chunks.length).toBeGreaterThan(2)
      expect(chunks.every((chunk) => chunk.sample_rate === 24_000)).toBe(true)
      expect(yield* collectSamples(Stream.fromIterable(chunks))).toEqual(expected)
      const [request] = yield* fake.requests
      expect(request).toMatchObject({
        protocol: "openai",
        method: "POST",
        path: "/v1/audio/speech",
        authorized: true,
        body: { model: "tts-fake", input: text, voice: "alloy", response_format: "pcm" },
        client_closed: false
      })
    })
  )

  it.effect("a sample split across reads (odd writes, even one byte at a time) is joined, not lost", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake)
      yield* fake.script(
        { kind: "speak", chunkBytes: 3, chunkDelayMs: 0 },
        { kind: "speak", chunkBytes: 1, chunkDelayMs: 0 }
      )
      expect(yield* collectSamples(speech.synthesize("one two"))).toEqual(
        SpeechPattern.samplesFor("one two", 24_000)
      )
      expect(yield* collectSamples(speech.synthesize("three"))).toEqual(
        SpeechPattern.samplesFor("three", 24_000)
      )
    })
  )

  it.effect("the first chunk comes while the provider is still sending the rest", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake)
      yield* fake.script({ kind: "speak", chunkBytes: 4801, chunkDelayMs: 150 })
      const first = yield* Deferred.make<number>()
      const fiber = yield* Effect.fork(
        Stream.runForEach(speech.synthesize(text), (chunk) => Deferred.succeed(first, chunk.samples.length))
      )
      expect(yield* Deferred.await(first)).toBeGreaterThan(0)
      const [request] = yield* fake.requests
      expect(request!.answered_bytes).toBeLessThan(expected.length * 2)
      yield* Fiber.join(fiber)
    })
  )

  it.effect("the call's voice replaces the default; a blank text sends nothing", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake, { voice: "nova" })
      yield* collectSamples(speech.synthesize("Hi", { voice: "coral", language: "pl" }))
      yield* collectSamples(speech.synthesize("Hi", { voice: "" }))
      expect((yield* collectSamples(speech.synthesize("  "))).length).toBe(0)
      const requests = yield* fake.requests
      expect(requests.map((request) => (request.body as { voice: string }).voice)).toEqual(["coral", "nova"])
      // OpenAI takes no language: the text's own is spoken
      expect(requests[0]!.body).not.toHaveProperty("language")
    })
  )

  it.effect("interrupted (a barge-in), the HTTP exchange is aborted: the fake sees the socket close", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake)
      yield* fake.script({ kind: "stall", bytes: 960 })
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(
        Stream.runForEach(speech.synthesize(text), () => Deferred.succeed(started, undefined))
      )
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
    })
  )

  it.effect("taking only the first chunk also ends the exchange", () =>
    Effect.gen(function* () {
      const fake = yield* fresh
      const speech = yield* adapterOver(fake)
      yield* fake.script({ kind: "speak", chunkDelayMs: 100 })
      const first = yield* Stream.runCollect(Stream.take(speech.synthesize(text), 1))
      expect(Chunk.size(first)).toBe(1)
      expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
    })
  )

  it.effect("refuses options that cannot work", () =>
    Effect.gen(function* () {
      for (const options of [
        { baseUrl: "ftp://example.com" },
        { baseUrl: "https://user:pw@example.com/v1" },
        { model: "" },
        { firstByteTimeoutMs: 0 },
        { timeoutMs: 700_000 },
        { maxResponseBytes: 10 }
      ]) {
        expect((yield* Effect.flip(OpenAiSpeech.make(options)))._tag).toBe("InvalidOptions")
      }
    })
  )
})
