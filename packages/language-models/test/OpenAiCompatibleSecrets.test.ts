import { expect, layer } from "@effect/vitest"
import type { ModelRequest } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Cause, Effect, Exit, Logger, LogLevel, Metric, Schema, Tracer } from "effect"
import { adapterOver, collect, freshFake, testKey } from "./support/OverFake.js"

const conversation: ModelRequest = { messages: [{ role: "user", content: "Hello?" }] }
const usage = { prompt_tokens: 3, completion_tokens: 1 }
/** An error body that repeats the key, as OpenAI's 401 repeats part of it. */
const echoing = (status: number) =>
  ({
    kind: "json",
    status,
    body: {
      error: {
        message: `Incorrect API key provided: ${testKey}`,
        type: "invalid_request_error",
        code: "invalid_api_key"
      }
    }
  }) as const

/** Every span started under `recording`, kept as the tracer made it. */
const recordingTracer = Effect.map(Effect.tracer, (native) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = native.span(...args)
      spans.push(span)
      return span
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { spans, recording: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withTracer(effect, tracer) }
})

layer(FakeOpenAiServer.layer, { timeout: "60 seconds", excludeTestServices: true })(
  "OpenAiCompatible and its key",
  (it) => {
    it.effect("sends the key as a bearer token, and it reaches no error, span, log line or metric", () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake, { timeoutMs: 2000 })
        const { recording, spans } = yield* recordingTracer
        const lines: Array<string> = []
        const logger = Logger.replace(
          Logger.defaultLogger,
          Logger.map(Logger.logfmtLogger, (line) => void lines.push(line))
        )
        yield* fake.script(
          { kind: "reply", content: "Hello", usage },
          { kind: "reply", content: "Hello", usage },
          { kind: "reply", content: '{"mood":"happy"}', usage },
          echoing(401),
          echoing(400),
          echoing(403),
          echoing(500),
          { kind: "sse", events: [{ error: { message: `Bad key ${testKey}`, type: "server_error" } }] },
          { kind: "hang" }
        )
        const exits: ReadonlyArray<Exit.Exit<unknown, unknown>> = yield* Effect.all(
          [
            Effect.exit(collect(model.stream(conversation))),
            Effect.exit(model.generate(conversation)),
            Effect.exit(
              model.structured({
                name: "mood",
                schema: Schema.Struct({ mood: Schema.String }),
                messages: conversation.messages
              })
            ),
            ...Array.from({ length: 4 }, () => Effect.exit(model.generate(conversation))),
            Effect.exit(collect(model.stream(conversation))),
            Effect.exit(model.generate(conversation))
          ],
          { concurrency: 1 }
        ).pipe(recording, Effect.provide(logger), Logger.withMinimumLogLevel(LogLevel.All))

        // it was sent, every time
        const requests = yield* fake.requests
        expect(requests).toHaveLength(9)
        for (const request of requests) expect(request.headers["authorization"]).toBe(`Bearer ${testKey}`)

        // the errors: six failures, the last the deadline; none carries the key in any form
        const failures = exits.flatMap((exit) => (Exit.isFailure(exit) ? [exit] : []))
        expect(failures).toHaveLength(6)
        expect(
          failures.map((exit) => Cause.squash(exit.cause)).map((error) => (error as { _tag: string })._tag)
        ).toEqual([
          "ModelUnavailable",
          "ModelRefused",
          "ModelUnavailable",
          "ModelUnavailable",
          "ModelUnavailable",
          "ModelDeadline"
        ])
        for (const exit of failures) {
          const error = Cause.squash(exit.cause) as Error
          expect(error.message).not.toContain(testKey)
          expect(JSON.stringify(error)).not.toContain(testKey)
          expect(Cause.pretty(exit.cause)).not.toContain(testKey)
        }

        // the spans: one per operation, with the provider, the model and the tokens, and nothing of the key
        expect(spans.map((span) => span.name)).toEqual([
          "LanguageModel.stream",
          "LanguageModel.generate",
          "LanguageModel.structured",
          ...Array.from({ length: 4 }, () => "LanguageModel.generate"),
          "LanguageModel.stream",
          "LanguageModel.generate"
        ])
        expect(Object.fromEntries(spans[1]!.attributes)).toEqual({
          "llm.provider": "openai",
          "llm.model": "fake-model",
          "llm.prompt_tokens": 3,
          "llm.completion_tokens": 1,
          "llm.finish_reason": "stop"
        })
        expect(Object.fromEntries(spans[0]!.attributes)).toMatchObject({
          "llm.prompt_tokens": 3,
          "llm.completion_tokens": 1
        })
        for (const span of spans) {
          expect(JSON.stringify([...span.attributes])).not.toContain(testKey)
          if (span.status._tag === "Ended" && Exit.isFailure(span.status.exit)) {
            expect(Cause.pretty(span.status.exit.cause)).not.toContain(testKey)
          }
        }

        // the log: a warning per failure, none with the key
        expect(lines.filter((line) => line.includes("language model request failed"))).toHaveLength(6)
        for (const line of lines) expect(line).not.toContain(testKey)

        // the metrics: counted by provider and outcome, and nothing of the key
        const snapshot = yield* Metric.snapshot
        const modelMetrics = snapshot.filter((pair) => pair.metricKey.name.startsWith("vap_model_"))
        const labels = modelMetrics.map((pair) =>
          [pair.metricKey.name, ...pair.metricKey.tags.map((tag) => `${tag.key}=${tag.value}`)].join(" ")
        )
        expect(labels).toEqual(
          expect.arrayContaining([
            "vap_model_requests_total provider=openai outcome=ok",
            "vap_model_requests_total provider=openai outcome=deadline",
            "vap_model_tokens_total provider=openai kind=prompt"
          ])
        )
        expect(
          JSON.stringify(snapshot.map((pair) => [pair.metricKey.name, pair.metricKey.tags]))
        ).not.toContain(testKey)
      })
    )
  }
)
