import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, Stream } from "effect"
import type { LanguageModel, ModelEvent } from "../../src/language-model/LanguageModel.js"
import { ModelRateLimited, ModelUnavailable } from "../../src/language-model/LanguageModelErrors.js"
import * as ModelObservation from "../../src/language-model/ModelObservation.js"
import { recordingTracer } from "../observability/RecordingTracer.js"

const usage = { prompt_tokens: 7, completion_tokens: 3 }
const events: ReadonlyArray<ModelEvent> = [
  { _tag: "TextDelta", text: "Hi" },
  { _tag: "TextDelta", text: " there" },
  { _tag: "Usage", usage },
  { _tag: "Finish", reason: "stop" }
]

/** A model that answers `events`, and fails its generate when it is told to. */
const scripted = (provider: string, generateFails: boolean): LanguageModel["Type"] => ({
  provider,
  stream: () => Stream.fromIterable(events),
  generate: () =>
    generateFails
      ? Effect.fail(new ModelRateLimited({ reason: "slow down", retry_after_ms: 1000 }))
      : Effect.succeed({ text: "Hi there", tool_calls: [], usage, finish_reason: "stop" }),
  structured: () => Effect.fail(new ModelUnavailable({ reason: "no" }))
})

const count = (provider: string, outcome: ModelObservation.Outcome) =>
  Effect.map(
    Metric.value(
      Metric.tagged(Metric.tagged(ModelObservation.requests, "provider", provider), "outcome", outcome)
    ),
    (state) => state.count
  )
const tokens = (provider: string, kind: "prompt" | "completion") =>
  Effect.map(
    Metric.value(Metric.tagged(Metric.tagged(ModelObservation.tokens, "provider", provider), "kind", kind)),
    (state) => state.count
  )

describe("ModelObservation.observed", () => {
  it.effect(
    "traces each operation with the provider, the model and the tokens, and counts outcomes and tokens",
    () =>
      Effect.gen(function* () {
        const { recording, spans } = yield* recordingTracer
        const model = ModelObservation.observed(scripted("observed-a", false), { defaultModel: "base-model" })
        yield* Stream.runDrain(model.stream({ messages: [], model: "other-model" })).pipe(recording)
        yield* model.generate({ messages: [] }).pipe(recording)
        yield* Effect.flip(model.structured({ name: "x", schema: undefined as never, messages: [] })).pipe(
          recording
        )
        expect(spans.map((span) => [span.name, Object.fromEntries(span.attributes)])).toEqual([
          [
            "LanguageModel.stream",
            {
              "llm.provider": "observed-a",
              "llm.model": "other-model",
              "llm.prompt_tokens": 7,
              "llm.completion_tokens": 3,
              "llm.finish_reason": "stop"
            }
          ],
          [
            "LanguageModel.generate",
            {
              "llm.provider": "observed-a",
              "llm.model": "base-model",
              "llm.prompt_tokens": 7,
              "llm.completion_tokens": 3,
              "llm.finish_reason": "stop"
            }
          ],
          [
            "LanguageModel.structured",
            { "llm.provider": "observed-a", "llm.model": "base-model", "llm.structured_output": "x" }
          ]
        ])
        expect(yield* count("observed-a", "ok")).toBe(2)
        expect(yield* count("observed-a", "unavailable")).toBe(1)
        expect(yield* tokens("observed-a", "prompt")).toBe(14)
        expect(yield* tokens("observed-a", "completion")).toBe(6)
      })
  )

  it.effect("counts a failure by its kind and a stream its consumer stopped as canceled, each once", () =>
    Effect.gen(function* () {
      const model = ModelObservation.observed(scripted("observed-b", true), { defaultModel: "m" })
      yield* Effect.flip(model.generate({ messages: [] }))
      yield* Stream.runDrain(Stream.take(model.stream({ messages: [] }), 1))
      expect(yield* count("observed-b", "rate_limited")).toBe(1)
      expect(yield* count("observed-b", "canceled")).toBe(1)
      expect(yield* count("observed-b", "ok")).toBe(0)
    })
  )

  it.effect(
    "counts a stream that fails after some text by its error, once, with the tokens it reported",
    () =>
      Effect.gen(function* () {
        const { recording, spans } = yield* recordingTracer
        const failing: LanguageModel["Type"] = {
          ...scripted("observed-c", false),
          stream: () =>
            Stream.concat(
              Stream.fromIterable(events.slice(0, 3)),
              Stream.fail(new ModelUnavailable({ reason: "connection reset" }))
            )
        }
        const model = ModelObservation.observed(failing, { defaultModel: "m" })
        const error = yield* Effect.flip(Stream.runDrain(model.stream({ messages: [] })).pipe(recording))
        expect(error._tag).toBe("ModelUnavailable")
        expect(yield* count("observed-c", "unavailable")).toBe(1)
        expect(yield* count("observed-c", "ok")).toBe(0)
        expect(yield* count("observed-c", "canceled")).toBe(0)
        expect(yield* tokens("observed-c", "prompt")).toBe(7)
        expect(spans.map((span) => [span.name, span.attributes.get("llm.prompt_tokens")])).toEqual([
          ["LanguageModel.stream", 7]
        ])
      })
  )
})
