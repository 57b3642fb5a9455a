import { Cause, Channel, Effect, Exit, FiberId, Metric, Option, Stream } from "effect"
import * as OperationSpans from "../observability/OperationSpans.js"
import type { FinishReason, LanguageModel, TokenUsage } from "./LanguageModel.js"
import type { LanguageModelError } from "./LanguageModelErrors.js"

/**
 * What an operator sees of a language model: a span per operation (`LanguageModel.stream`, `.generate`,
 * `.structured`) with the provider, the model and the tokens, two counters in Effect's `Metric` registry
 * (which the bundled server exposes at `GET /metrics`), and a warning per failed request. Every adapter
 * is wrapped once with `observed`. Nothing here ever holds a key: the provider's name, the model's name,
 * counts, and the error's message (which adapters write without keys).
 */

/** How a request ended: `ok`, an error (`unavailable`, `rate_limited`, `refused`, `input_too_long`, `deadline`), or `canceled`. */
export type Outcome =
  "ok" | "unavailable" | "rate_limited" | "refused" | "input_too_long" | "deadline" | "canceled"

/** Model requests by provider and outcome. */
export const requests = Metric.counter("vap_model_requests_total", {
  description: "Language model requests, by provider and outcome",
  incremental: true
})

/** Tokens the provider counted, by provider and kind (`prompt`, `completion`). */
export const tokens = Metric.counter("vap_model_tokens_total", {
  description: "Language model tokens, by provider and kind (prompt, completion)",
  incremental: true
})

const outcomes: Record<LanguageModelError["_tag"], Outcome> = {
  ModelUnavailable: "unavailable",
  ModelRateLimited: "rate_limited",
  ModelRefused: "refused",
  ModelInputTooLong: "input_too_long",
  ModelDeadline: "deadline"
}

/** The outcome of a failed request. */
export const outcomeOf = (error: LanguageModelError): Outcome => outcomes[error._tag]

const spanOptions = { captureStackTrace: false } as const

type Service = LanguageModel["Type"]

/**
 * `service` with its operations traced, counted and logged. `defaultModel` is the model a request that
 * names none goes to (the span's `llm.model`).
 */
export const observed = (service: Service, options: { readonly defaultModel: string }): Service => {
  const provider = service.provider
  const providerRequests = Metric.tagged(requests, "provider", provider)
  const countOutcome = (outcome: Outcome) =>
    Metric.increment(Metric.tagged(providerRequests, "outcome", outcome))
  const promptTokens = Metric.tagged(Metric.tagged(tokens, "provider", provider), "kind", "prompt")
  const completionTokens = Metric.tagged(Metric.tagged(tokens, "provider", provider), "kind", "completion")

  const recordUsage = (usage: TokenUsage) =>
    Effect.all(
      [
        Effect.annotateCurrentSpan({
          "llm.prompt_tokens": usage.prompt_tokens,
          "llm.completion_tokens": usage.completion_tokens
        }),
        Metric.incrementBy(promptTokens, usage.prompt_tokens),
        Metric.incrementBy(completionTokens, usage.completion_tokens)
      ],
      { discard: true }
    )
  const recordFinish = (reason: FinishReason) => Effect.annotateCurrentSpan("llm.finish_reason", reason)

  /** Counts how a request ended; a failure is also logged (an interruption is the caller's choice, not a fault). */
  const settle =
    (operation: string, model: string) =>
    <A>(exit: Exit.Exit<A, LanguageModelError>): Effect.Effect<void> => {
      if (Exit.isSuccess(exit)) return countOutcome("ok")
      if (Cause.isInterruptedOnly(exit.cause)) return countOutcome("canceled")
      const failure = Option.getOrNull(Cause.failureOption(exit.cause))
      return Effect.zipRight(
        countOutcome(failure === null ? "unavailable" : outcomeOf(failure)),
        Effect.logWarning("language model request failed").pipe(
          Effect.annotateLogs({
            provider,
            model,
            operation,
            error: failure === null ? "an unexpected failure" : failure.message
          })
        )
      )
    }

  const attributes = (model: string) => ({ "llm.provider": provider, "llm.model": model })

  return {
    provider,
    generate: (request) => {
      const model = request.model ?? options.defaultModel
      return service.generate(request).pipe(
        Effect.tap((reply) => Effect.zipRight(recordUsage(reply.usage), recordFinish(reply.finish_reason))),
        Effect.onExit(settle("generate", model)),
        Effect.withSpan("LanguageModel.generate", { ...spanOptions, attributes: attributes(model) })
      )
    },
    structured: (request) => {
      const model = request.model ?? options.defaultModel
      return service.structured(request).pipe(
        Effect.tap((reply) => recordUsage(reply.usage)),
        Effect.onExit(settle("structured", model)),
        Effect.withSpan("LanguageModel.structured", {
          ...spanOptions,
          attributes: { ...attributes(model), "llm.structured_output": request.name }
        })
      )
    },
    stream: (request) => {
      const model = request.model ?? options.defaultModel
      // One stage a network read: usage and finish read per chunk without an effect, and the span made
      // once and annotated directly, not provided around the stream (`Stream.withSpan` switches the
      // context on every element, which cost more than the rest of the observation). The outcome is
      // settled once, as the stream is released: `ok` when its end was reached, else how it failed, or
      // `canceled` when its consumer stopped pulling or was interrupted.
      const begin = Effect.map(
        OperationSpans.makeSpan("LanguageModel.stream", { ...spanOptions, attributes: attributes(model) }),
        (span) => ({ span, ended: false, prompt: 0, completion: 0 })
      )
      return Stream.fromChannel(
        Channel.acquireUseRelease(
          begin,
          (state) =>
            Channel.zipLeft(
              Stream.toChannel(
                Stream.mapChunks(service.stream(request), (chunk) => {
                  for (const event of chunk) {
                    if (event._tag === "Usage") {
                      state.prompt += event.usage.prompt_tokens
                      state.completion += event.usage.completion_tokens
                      state.span?.attribute("llm.prompt_tokens", event.usage.prompt_tokens)
                      state.span?.attribute("llm.completion_tokens", event.usage.completion_tokens)
                    } else if (event._tag === "Finish")
                      state.span?.attribute("llm.finish_reason", event.reason)
                  }
                  return chunk
                })
              ),
              Channel.fromEffect(Effect.sync(() => (state.ended = true)))
            ),
          ({ completion, ended, prompt, span }, exit) => {
            const outcome: Exit.Exit<unknown, LanguageModelError> = Exit.isFailure(exit)
              ? (exit as Exit.Exit<never, LanguageModelError>)
              : ended
                ? Exit.void
                : Exit.failCause(Cause.interrupt(FiberId.none))
            const settling = Effect.zipRight(
              prompt === 0 && completion === 0
                ? Effect.void
                : Effect.zipRight(
                    Metric.incrementBy(promptTokens, prompt),
                    Metric.incrementBy(completionTokens, completion)
                  ),
              settle("stream", model)(outcome)
            )
            return Effect.zipRight(
              span === undefined ? settling : Effect.withParentSpan(settling, span),
              OperationSpans.endSpan(span, exit)
            )
          }
        )
      )
    }
  }
}
