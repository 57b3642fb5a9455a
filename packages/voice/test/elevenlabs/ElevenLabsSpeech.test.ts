import { expect, layer } from "@effect/vitest"
import * as TextToSpeech from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { collectSamples } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { ElevenLabsSpeech } from "@voice-agent-platform/voice"
import { FakeSpeechServer, SpeechFakeWaits, SpeechPattern } from "@voice-agent-platform/voice/testing"
import { Chunk, Deferred, Effect, Fiber, Redacted, Stream } from "effect"

const key = FakeSpeechServer.elevenLabsKey
const voice = "EXAVITQu4vr4xnSDxMaL"
const text = "Dzień dobry, mówi agent."
const fresh = Effect.tap(FakeSpeechServer.FakeSpeechServer, (fake) => fake.reset)
const adapterOver = (fake: FakeSpeechServer.Running, options: Partial<ElevenLabsSpeech.Options> = {}) =>
  Effect.orDie(
    ElevenLabsSpeech.make({ baseUrl: fake.elevenLabsBaseUrl, apiKey: Redacted.make(key), voice, ...options })
  )
const failure = (speech: TextToSpeech.Service, words = "Hello there") =>
  Effect.flip(collectSamples(speech.synthesize(words)))

layer(FakeSpeechServer.layer, { timeout: "60 seconds", excludeTestServices: true })(
  "ElevenLabsSpeech",
  (it) => {
    it.effect(
      "posts to the voice's stream with xi-api-key and streams 16 kHz chunks that join to the PCM",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const speech = yield* adapterOver(fake)
          expect(speech.sample_rate).toBe(16_000)
          const chunks = Chunk.toReadonlyArray(
            yield* Stream.runCollect(speech.synthesize(text, { language: "pl-PL" }))
          )
          expect(chunks.length).toBeGreaterThan(1)
          expect(chunks.every((chunk) => chunk.sample_rate === 16_000)).toBe(true)
          expect(yield* collectSamples(Stream.fromIterable(chunks))).toEqual(
            SpeechPattern.samplesFor(text, 16_000)
          )
          const [request] = yield* fake.requests
          expect(request).toMatchObject({
            protocol: "elevenlabs",
            path: `/v1/text-to-speech/${voice}/stream`,
            query: { output_format: "pcm_16000" },
            authorized: true,
            body: { text, model_id: "eleven_flash_v2_5", language_code: "pl" }
          })
        })
    )

    it.effect("odd splits are joined; the call's voice is used; no language, no language_code", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        yield* fake.script({ kind: "speak", chunkBytes: 1, chunkDelayMs: 0 })
        const other = "21m00Tcm4TlvDq8ikWAM"
        expect(yield* collectSamples(speech.synthesize("Tak", { voice: other }))).toEqual(
          SpeechPattern.samplesFor("Tak", 16_000)
        )
        const [request] = yield* fake.requests
        expect(request!.path).toBe(`/v1/text-to-speech/${other}/stream`)
        expect(request!.body).not.toHaveProperty("language_code")
      })
    )

    it.effect("interrupted, the exchange is aborted: the fake sees the socket close", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        yield* fake.script({ kind: "stall", bytes: 641 })
        const started = yield* Deferred.make<void>()
        const fiber = yield* Effect.fork(
          Stream.runForEach(speech.synthesize(text), () => Deferred.succeed(started, undefined))
        )
        yield* Deferred.await(started)
        yield* Fiber.interrupt(fiber)
        expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
      })
    )

    it.effect("a wrong key (or OpenAI's header): SpeechRefused naming ELEVENLABS_API_KEY, no key", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const wrong = "xi-wrong-0123456789abcdef0123456789ab"
        const error = yield* failure(yield* adapterOver(fake, { apiKey: Redacted.make(wrong) }))
        expect(error._tag).toBe("SpeechRefused")
        expect(error.message).toContain("ELEVENLABS_API_KEY")
        expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(wrong)
        const [request] = yield* fake.requests
        expect(request!.authorized).toBe(false)
        // the fake checks each protocol's own header: OpenAI's bearer token is no ElevenLabs key
        const status = yield* Effect.promise(() =>
          fetch(`${fake.elevenLabsBaseUrl}/v1/text-to-speech/${voice}/stream?output_format=pcm_16000`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${FakeSpeechServer.openAiKey}`
            },
            body: JSON.stringify({ text: "Hi", model_id: "eleven_flash_v2_5" })
          }).then((response) => response.status)
        )
        expect(status).toBe(401)
      })
    )

    it.effect("an unknown voice: SpeechRefused naming it", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        const error = yield* Effect.flip(collectSamples(speech.synthesize("Hi", { voice: "no/such voice" })))
        expect(error._tag).toBe("SpeechRefused")
        expect(error.message).toContain('"no/such voice"')
        expect(error.message).toContain("voice_not_found")
        // the id is one path segment, whatever it holds
        expect((yield* fake.requests)[0]!.path).toBe("/v1/text-to-speech/no%2Fsuch%20voice/stream")
      })
    )

    it.effect(
      "429 with Retry-After, 500 echoing the key, no first byte, audio that stops: the typed errors",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const speech = yield* adapterOver(fake, { firstByteTimeoutMs: 300, timeoutMs: 800 })
          yield* fake.script(
            {
              kind: "status",
              status: 429,
              headers: { "retry-after": "2" },
              body: { detail: { status: "too_many_concurrent_requests", message: "Too many" } }
            },
            { kind: "status", status: 500, body: { detail: { status: "internal", message: `key ${key}` } } },
            { kind: "silent" },
            { kind: "stall", bytes: 3201 }
          )
          expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechRateLimited", retry_after_ms: 2000 })
          const failed = yield* failure(speech)
          expect(failed._tag).toBe("SpeechUnavailable")
          expect(`${failed.message} ${JSON.stringify(failed)}`).not.toContain(key)
          expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechDeadline", phase: "first_byte" })
          expect(yield* failure(speech)).toMatchObject({
            _tag: "SpeechDeadline",
            phase: "overall",
            timeout_ms: 800
          })
          expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
        })
    )

    it.effect(
      "a quota exceeded (ElevenLabs answers 401 for it) is SpeechUnavailable, not a key problem",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const speech = yield* adapterOver(fake)
          yield* fake.script({
            kind: "status",
            status: 401,
            body: { detail: { status: "quota_exceeded", message: "This request exceeds your quota." } }
          })
          expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechUnavailable" })
        })
    )

    it.effect("another PCM rate is asked for and given", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake, { sampleRate: 8000 })
        expect(speech.sample_rate).toBe(8000)
        expect(yield* collectSamples(speech.synthesize("Hi"))).toEqual(SpeechPattern.samplesFor("Hi", 8000))
        expect((yield* fake.requests)[0]!.query).toEqual({ output_format: "pcm_8000" })
      })
    )

    it("languageCode: the primary two-letter subtag", () => {
      expect(ElevenLabsSpeech.languageCode("pl-PL")).toBe("pl")
      expect(ElevenLabsSpeech.languageCode("EN")).toBe("en")
      expect(ElevenLabsSpeech.languageCode("yue")).toBeUndefined()
      expect(ElevenLabsSpeech.languageCode(undefined)).toBeUndefined()
    })

    it.effect("refuses options that cannot work", () =>
      Effect.gen(function* () {
        for (const options of [
          { apiKey: Redacted.make("") },
          { apiKey: Redacted.make(key), baseUrl: "https://speech.example?x=1" },
          { apiKey: Redacted.make(key), sampleRate: 12_345 as ElevenLabsSpeech.SampleRate }
        ]) {
          expect((yield* Effect.flip(ElevenLabsSpeech.make(options)))._tag).toBe("InvalidOptions")
        }
      })
    )
  }
)
