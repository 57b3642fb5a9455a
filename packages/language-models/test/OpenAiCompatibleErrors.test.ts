import { expect, layer } from "@effect/vitest"
import type { ModelRequest } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { FakeModel, FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect, Either, Ref, Schema, Stream, TestClock } from "effect"
import { abortSeen, adapterOver, collect, freshFake, liveFakeLayer, unusedPort } from "./support/OverFake.js"

const conversation: ModelRequest = { messages: [{ role: "user", content: "Hello?" }] }
const openAiError = (type: string, code: string | null, message = "Something went wrong.") => ({
  error: { message, type, param: null, code }
})
const Mood = Schema.Struct({ mood: Schema.Literal("happy", "sad") })

layer(FakeOpenAiServer.layer, { timeout: "60 seconds" })("OpenAiCompatible: the provider's errors", (it) => {
  it.effect(
    "429: rate limited, with Retry-After in seconds, as an HTTP date, or retry-after-ms; none: null",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        yield* TestClock.setTime(Date.parse("2026-01-15T10:00:00.000Z"))
        const limited = openAiError("requests", "rate_limit_exceeded", "Rate limit reached")
        yield* fake.script(
          { kind: "json", status: 429, headers: { "retry-after": "20" }, body: limited },
          {
            kind: "json",
            status: 429,
            headers: { "retry-after": "Thu, 15 Jan 2026 10:01:30 GMT" },
            body: limited
          },
          {
            kind: "json",
            status: 429,
            headers: { "retry-after-ms": "850", "retry-after": "1" },
            body: limited
          },
          { kind: "json", status: 429, body: limited }
        )
        const delays: Array<number | null> = []
        for (let i = 0; i < 4; i++) {
          const error = yield* Effect.flip(model.generate(conversation))
          expect(error._tag).toBe("ModelRateLimited")
          if (error._tag === "ModelRateLimited") delays.push(error.retry_after_ms)
        }
        expect(delays).toEqual([20_000, 90_000, 850, null])
      })
  )

  it.effect("a streamed request's error status fails the stream the same way", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      yield* fake.script({
        kind: "json",
        status: 429,
        headers: { "retry-after": "2" },
        body: openAiError("requests", null)
      })
      expect(yield* Effect.flip(collect(model.stream(conversation)))).toMatchObject({
        _tag: "ModelRateLimited",
        retry_after_ms: 2000
      })
    })
  )

  it.effect(
    "500: unavailable; 400 context_length_exceeded: too long; other 400: refused; 401: unavailable, check the key",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        yield* fake.script(
          { kind: "json", status: 500, body: openAiError("server_error", null) },
          {
            kind: "json",
            status: 400,
            body: openAiError(
              "invalid_request_error",
              "context_length_exceeded",
              "This model's maximum context length is 128000 tokens."
            )
          },
          { kind: "json", status: 400, body: openAiError("invalid_request_error", "invalid_value") },
          {
            kind: "json",
            status: 401,
            body: openAiError(
              "invalid_request_error",
              "invalid_api_key",
              "Incorrect API key provided: sk-test***tuv."
            )
          }
        )
        const messages: Array<string> = []
        for (let i = 0; i < 4; i++) messages.push((yield* Effect.flip(model.generate(conversation))).message)
        expect(messages).toEqual([
          "model_unavailable: the provider failed (500, server_error)",
          "model_input_too_long: the conversation does not fit the model's context (400, invalid_request_error, context_length_exceeded)",
          "model_refused: the provider refused the request (400, invalid_request_error, invalid_value)",
          "model_unavailable: the provider did not accept the API key (401, invalid_request_error, invalid_api_key): check LLM_API_KEY"
        ])
      })
  )

  it.effect(
    "malformed SSE: an event that is not JSON, a chunk of the wrong shape, a stream cut off before it finished",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        const first = FakeModel.streamChunks({ content: "Hi" }, {}).slice(0, 2)
        yield* fake.script(
          { kind: "sse", events: [...first, "data: {not json\n\n"] },
          { kind: "sse", events: [{ choices: "none" }] },
          { kind: "sse", events: first, done: false }
        )
        const reasons: Array<string> = []
        for (let i = 0; i < 3; i++) {
          const seen = yield* Ref.make<ReadonlyArray<string>>([])
          const error = yield* Effect.flip(
            Stream.runForEach(model.stream(conversation), (event) =>
              Ref.update(seen, (tags) => [...tags, event._tag])
            )
          )
          expect(error._tag).toBe("ModelUnavailable")
          reasons.push(error.message)
          // the text that came before the fault was passed on; no finish was made up
          expect(yield* Ref.get(seen)).toEqual(i === 1 ? [] : ["TextDelta"])
        }
        expect(reasons).toEqual([
          "model_unavailable: the provider's stream held an event that is not JSON",
          "model_unavailable: the provider's stream held an event that is not a completion chunk",
          "model_unavailable: the provider's stream ended before the reply finished"
        ])
      })
  )

  it.effect("malformed JSON: a body that is not JSON, or not a completion", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      yield* fake.script(
        {
          kind: "raw",
          headers: { "content-type": "application/json" },
          chunks: ['{"choices": [{"message": ']
        },
        { kind: "json", body: { object: "list", data: [] } },
        { kind: "json", body: { choices: [] } }
      )
      const messages: Array<string> = []
      for (let i = 0; i < 3; i++) messages.push((yield* Effect.flip(model.generate(conversation))).message)
      expect(messages).toEqual([
        "model_unavailable: the provider's reply is not JSON",
        "model_unavailable: the provider's reply is not a chat completion",
        "model_unavailable: the provider's reply has no choices"
      ])
    })
  )

  it.effect("a refusal is refused, whole, streamed, or instead of structured output", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      const refusal = "I'm sorry, I cannot help with that request."
      yield* fake.script(
        { kind: "reply", refusal },
        { kind: "reply", refusal, piece: 5 },
        { kind: "reply", refusal }
      )
      const expected = `model_refused: the model refused: ${JSON.stringify(refusal)}`
      expect((yield* Effect.flip(model.generate(conversation))).message).toBe(expected)
      expect((yield* Effect.flip(collect(model.stream(conversation)))).message).toBe(expected)
      const structured = yield* Effect.flip(
        model.structured({ name: "mood", schema: Mood, messages: conversation.messages })
      )
      expect(structured.message).toBe(expected)
    })
  )

  it.effect("structured output that does not fit its schema is unavailable, saying why in a few words", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      const long = "x".repeat(5000)
      yield* fake.script(
        { kind: "reply", content: JSON.stringify({ mood: long }) },
        { kind: "reply", content: "Sure! Here is the JSON you asked for" },
        { kind: "reply", content: '{"mood": "ha', finish_reason: "length" }
      )
      const request = { name: "mood", schema: Mood, messages: conversation.messages }
      const first = yield* Effect.flip(model.structured(request))
      expect(first._tag).toBe("ModelUnavailable")
      expect(first.message).toMatch(
        /^model_unavailable: the structured reply is not an object of mood: the reply does not fit the schema/
      )
      // no more of the model's text than a short excerpt
      expect(first.message.length).toBeLessThan(700)
      expect((yield* Effect.flip(model.structured(request))).message).toBe(
        "model_unavailable: the structured reply is not an object of mood: the reply is not JSON"
      )
      expect((yield* Effect.flip(model.structured(request))).message).toBe(
        "model_unavailable: the structured reply was cut off at max_tokens (1024) before it was complete"
      )
    })
  )
})

// On the real clock, with small deadlines and caps: the fake never answers, stalls, or answers too much.
layer(liveFakeLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "OpenAiCompatible: deadlines, caps and unreachable servers",
  (it) => {
    it.effect("a server that never answers: the deadline fires and the request is aborted", () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake, { timeoutMs: 150 })
        yield* fake.script({ kind: "hang" }, { kind: "hang" })
        expect(yield* Effect.flip(model.generate(conversation))).toEqual(
          expect.objectContaining({ _tag: "ModelDeadline", timeout_ms: 150 })
        )
        expect(yield* abortSeen(fake)).toBe(true)
        expect((yield* Effect.flip(collect(model.stream(conversation))))._tag).toBe("ModelDeadline")
        expect(yield* abortSeen(fake)).toBe(true)
      })
    )

    it.effect(
      "a stream that stalls after its first delta: the delta is passed on, then the deadline fires",
      () =>
        Effect.gen(function* () {
          const fake = yield* freshFake
          const model = yield* adapterOver(fake, { timeoutMs: 1000 })
          yield* fake.script({
            kind: "sse",
            events: FakeModel.streamChunks({ content: "Let me think" }, {}),
            hang_after: 2
          })
          const seen = yield* Ref.make<ReadonlyArray<unknown>>([])
          const result = yield* Effect.either(
            Stream.runForEach(model.stream(conversation), (event) =>
              Ref.update(seen, (events) => [...events, event])
            )
          )
          expect(yield* Ref.get(seen)).toEqual([{ _tag: "TextDelta", text: "Let " }])
          expect(Either.isLeft(result) && result.left._tag).toBe("ModelDeadline")
          expect(yield* abortSeen(fake)).toBe(true)
        })
    )

    it.effect("an oversized reply, whole or streamed, is abandoned at the cap", () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake, { maxResponseBytes: 64 * 1024 })
        // far more than loopback's socket buffers hold (they grow to a few MiB): the fake cannot finish
        // writing before the adapter abandons the reply, so the abort is always the client's; with 4 MiB
        // the buffers took the whole reply on a loaded machine and the fake saw it finished
        const bytes = 64 * 1024 * 1024
        yield* fake.script({ kind: "oversized", bytes }, { kind: "oversized", bytes })
        const tooLarge = "model_unavailable: the reply was larger than 65536 bytes"
        expect((yield* Effect.flip(model.generate(conversation))).message).toBe(tooLarge)
        expect(yield* abortSeen(fake)).toBe(true)
        expect((yield* Effect.flip(collect(model.stream(conversation)))).message).toBe(tooLarge)
        expect(yield* abortSeen(fake)).toBe(true)
      })
    )

    it.effect("a server nobody listens on, and one that redirects: unavailable, naming no address", () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const closed = yield* adapterOver(fake, { baseUrl: `http://127.0.0.1:${yield* unusedPort}/v1` })
        const unreachable = yield* Effect.flip(closed.generate(conversation))
        expect(unreachable.message).toBe(
          "model_unavailable: the model server could not be reached (ECONNREFUSED)"
        )
        const model = yield* adapterOver(fake)
        yield* fake.script({
          kind: "json",
          status: 307,
          headers: { location: "http://127.0.0.1:1/v1/chat/completions" },
          body: {}
        })
        expect((yield* Effect.flip(model.generate(conversation))).message).toBe(
          "model_unavailable: the model server redirected the request (307): set LLM_BASE_URL to the address it redirects to"
        )
      })
    )
  }
)
