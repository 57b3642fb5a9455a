import { expect, layer } from "@effect/vitest"
import * as TextToSpeech from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { collectSamples, maxTextLength } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { OpenAiSpeech } from "@voice-agent-platform/voice"
import { FakeSpeechServer, SpeechFakeWaits } from "@voice-agent-platform/voice/testing"
import { Effect, Redacted, Tracer } from "effect"

const key = FakeSpeechServer.openAiKey
const fresh = Effect.tap(FakeSpeechServer.FakeSpeechServer, (fake) => fake.reset)
const adapterOver = (fake: FakeSpeechServer.Running, options: OpenAiSpeech.Options = {}) =>
  Effect.orDie(OpenAiSpeech.make({ baseUrl: fake.openAiBaseUrl, apiKey: Redacted.make(key), ...options }))
const failure = (speech: TextToSpeech.Service, text = "Hello there") =>
  Effect.flip(collectSamples(speech.synthesize(text)))

/** The error, its message and its fields, none holding the key or a piece of it. */
const expectNoKey = (error: unknown, secret: string) => {
  const shown = `${String((error as Error).message)} ${JSON.stringify(error)}`
  expect(shown).not.toContain(secret)
  expect(shown).not.toContain(secret.slice(0, 6))
  expect(shown).not.toContain(secret.slice(-4))
}

layer(FakeSpeechServer.layer, { timeout: "60 seconds", excludeTestServices: true })(
  "OpenAiSpeech: errors",
  (it) => {
    it.effect(
      "401 (a wrong key, echoed in part by the provider): SpeechRefused naming TTS_API_KEY, no key",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const wrong = "sk-wrong-key-9876543210zyxwvutsrq"
          const speech = yield* adapterOver(fake, { apiKey: Redacted.make(wrong) })
          const error = yield* failure(speech)
          expect(error._tag).toBe("SpeechRefused")
          expect(error.message).toContain("TTS_API_KEY")
          expect(error.message).toContain("401")
          expectNoKey(error, wrong)
        })
    )

    it.effect("429 with Retry-After: SpeechRateLimited with the delay; without: null", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        const limited = {
          error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" }
        }
        yield* fake.script(
          { kind: "status", status: 429, headers: { "retry-after": "3" }, body: limited },
          { kind: "status", status: 429, body: limited },
          {
            kind: "status",
            status: 429,
            body: { error: { type: "insufficient_quota", code: "insufficient_quota" } }
          }
        )
        expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechRateLimited", retry_after_ms: 3000 })
        expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechRateLimited", retry_after_ms: null })
        // no quota left is not worth retrying soon
        expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechUnavailable" })
      })
    )

    it.effect("500 (its body echoing the key): SpeechUnavailable, no key", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        yield* fake.script({
          kind: "status",
          status: 500,
          body: { error: { message: `boom ${key}`, type: "server_error" } }
        })
        const error = yield* failure(speech)
        expect(error._tag).toBe("SpeechUnavailable")
        expect(error.message).toContain("500")
        expectNoKey(error, key)
      })
    )

    it.effect("a voice the provider lacks: SpeechRefused naming the voice", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        const error = yield* Effect.flip(collectSamples(speech.synthesize("Hi", { voice: "robot" })))
        expect(error._tag).toBe("SpeechRefused")
        expect(error.message).toContain('"robot"')
      })
    )

    it.effect(
      "too long: refused before sending past the port's bound; the provider's own refusal the same error",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const speech = yield* adapterOver(fake)
          const error = yield* failure(speech, "a".repeat(maxTextLength + 1))
          expect(error).toMatchObject({
            _tag: "SpeechTextTooLong",
            length: maxTextLength + 1,
            max: maxTextLength
          })
          expect(yield* fake.requests).toHaveLength(0)
          yield* fake.script({
            kind: "status",
            status: 400,
            body: {
              error: {
                message: "String should have at most 1000 characters",
                type: "invalid_request_error",
                code: "string_above_max_length",
                param: "input"
              }
            }
          })
          expect(yield* failure(speech, "Some words")).toMatchObject({
            _tag: "SpeechTextTooLong",
            length: 10,
            max: null
          })
        })
    )

    it.effect(
      "no answer within the first-byte deadline: SpeechDeadline first_byte, the exchange aborted",
      () =>
        Effect.gen(function* () {
          const fake = yield* fresh
          const speech = yield* adapterOver(fake, { firstByteTimeoutMs: 300 })
          yield* fake.script({ kind: "silent" })
          expect(yield* failure(speech)).toMatchObject({
            _tag: "SpeechDeadline",
            phase: "first_byte",
            timeout_ms: 300
          })
          expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
        })
    )

    it.effect("audio that stops coming: SpeechDeadline overall, the exchange aborted", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake, { firstByteTimeoutMs: 300, timeoutMs: 700 })
        yield* fake.script({ kind: "stall", bytes: 4801 })
        expect(yield* failure(speech)).toMatchObject({
          _tag: "SpeechDeadline",
          phase: "overall",
          timeout_ms: 700
        })
        expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
      })
    )

    it.effect("a slow but steady provider within its deadlines is fine", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake, { firstByteTimeoutMs: 500, timeoutMs: 5000 })
        yield* fake.script({ kind: "speak", firstByteDelayMs: 200, chunkDelayMs: 50 })
        expect((yield* collectSamples(speech.synthesize("Hello there"))).length).toBeGreaterThan(0)
      })
    )

    it.effect("more audio than the cap: SpeechUnavailable, the exchange aborted", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake, { maxResponseBytes: 4096 })
        const error = yield* failure(speech, "many words to say here")
        expect(error._tag).toBe("SpeechUnavailable")
        expect(error.message).toContain("4096 bytes")
        expect(yield* SpeechFakeWaits.abortSeen(fake)).toBe(true)
      })
    )

    it.effect("a redirect is not followed and a text answer is not audio: SpeechUnavailable", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        yield* fake.script(
          { kind: "status", status: 307, headers: { location: "http://elsewhere.invalid/v1/audio/speech" } },
          { kind: "status", status: 200, body: { audio: "none" } }
        )
        const redirected = yield* failure(speech)
        expect(redirected._tag).toBe("SpeechUnavailable")
        expect(redirected.message).toContain("redirected")
        expect(redirected.message).not.toContain("elsewhere")
        expect(yield* failure(speech)).toMatchObject({ _tag: "SpeechUnavailable" })
        expect(yield* fake.requests).toHaveLength(2)
      })
    )

    it.effect("nobody listening: SpeechUnavailable with the network code, no address", () =>
      Effect.gen(function* () {
        const port = yield* SpeechFakeWaits.unusedPort
        const speech = yield* Effect.orDie(
          OpenAiSpeech.make({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: Redacted.make(key) })
        )
        const error = yield* failure(speech)
        expect(error._tag).toBe("SpeechUnavailable")
        expect(error.message).toContain("ECONNREFUSED")
        expect(error.message).not.toContain(String(port))
      })
    )

    it.effect("the key is sent as a bearer token and reaches no span", () =>
      Effect.gen(function* () {
        const fake = yield* fresh
        const speech = yield* adapterOver(fake)
        const spans: Array<Tracer.Span> = []
        const native = yield* Effect.tracer
        const tracer = Tracer.make({
          span: (...args) => {
            const span = native.span(...args)
            spans.push(span)
            return span
          },
          context: (f, fiber) => native.context(f, fiber)
        })
        yield* collectSamples(speech.synthesize("Hello")).pipe(Effect.withTracer(tracer))
        yield* fake.script({ kind: "status", status: 500 })
        yield* Effect.exit(collectSamples(speech.synthesize("Hello"))).pipe(Effect.withTracer(tracer))
        expect((yield* fake.requests).map((request) => request.authorized)).toEqual([true, true])
        const synthesis = spans.filter((span) => span.name === "TextToSpeech.synthesize")
        expect(synthesis).toHaveLength(2)
        expect(synthesis[0]!.attributes.get("provider")).toBe("openai")
        for (const span of spans) {
          expect(JSON.stringify([...span.attributes.entries()])).not.toContain(key)
          expect(String(span.status._tag === "Ended" ? span.status.exit : "")).not.toContain(key)
        }
      })
    )
  }
)
