import { Effect, Either, Layer, Stream } from "effect"
import { observed } from "../ModelObservation.js"
import type {
  ModelEvent,
  ModelReply,
  ModelRequest,
  StructuredReply,
  StructuredRequest
} from "../LanguageModel.js"
import { LanguageModel } from "../LanguageModel.js"
import { ModelUnavailable } from "../LanguageModelErrors.js"
import { decodeText, jsonSchemaOf } from "../StructuredOutput.js"
import { next } from "./NextReply.js"
import { answer } from "./StructuredAnswers.js"
import * as TokenCount from "./TokenCount.js"

/**
 * The embedded model (`LLM_PROVIDER=embedded`, the default): a deterministic, rule-based stand-in for a
 * language model, written for this engine so that it runs with no key and no network. It walks the
 * conversation guide (`NextReply`) and fills structured answers by rules (`StructuredAnswers`); it does
 * not understand language, paraphrase or reason (docs/language-models.md says what it can do). Tokens
 * are counted by `TokenCount`; `model` and `temperature` are ignored, `max_tokens` cuts the reply.
 */

/** The provider's name in logs and metrics. */
export const provider = "embedded"

/** The deployment's choices (`LLM_MAX_TOKENS`); a request's `max_tokens` overrides them. */
export interface Options {
  /** The longest reply, in tokens; unbounded when absent. */
  readonly max_tokens?: number
}

/**
 * The reply to a request: the next message, its usage (the prompt's and the reply's tokens), and its
 * finish. A reply longer than `max_tokens` is cut there, without its calls, and finishes with `length`.
 */
export const replyTo = (request: ModelRequest, options: Options = {}): ModelReply => {
  const { text, tool_calls } = next(request)
  const prompt_tokens = TokenCount.countMessages(request.messages)
  const completion = TokenCount.count(text) + TokenCount.countCalls(tool_calls)
  const limit = request.max_tokens ?? options.max_tokens
  if (limit !== undefined && completion > limit) {
    const cut = TokenCount.cutAfter(text, limit)
    return {
      text: cut,
      tool_calls: [],
      usage: { prompt_tokens, completion_tokens: TokenCount.count(cut) },
      finish_reason: "length"
    }
  }
  return {
    text,
    tool_calls,
    usage: { prompt_tokens, completion_tokens: completion },
    finish_reason: tool_calls.length > 0 ? "tool_calls" : "stop"
  }
}

/** A reply as a stream: its text word by word, then its whole calls, its usage and its finish. */
export const eventsOf = (reply: ModelReply): ReadonlyArray<ModelEvent> => [
  ...TokenCount.deltas(reply.text).map((text): ModelEvent => ({ _tag: "TextDelta", text })),
  ...reply.tool_calls.map((call): ModelEvent => ({ _tag: "ToolCall", call })),
  { _tag: "Usage", usage: reply.usage },
  { _tag: "Finish", reason: reply.finish_reason }
]

/**
 * The structured answer to a request, decoded with its schema. A value that does not decode is a fault
 * of these rules; it is reported as `ModelUnavailable`, as a real model's unusable answer is.
 */
export const structuredAnswer = <A, I>(
  request: StructuredRequest<A, I>
): Either.Either<StructuredReply<A>, ModelUnavailable> => {
  const text = JSON.stringify(answer({ ...request, schema: jsonSchemaOf(request.schema) }) ?? null)
  const usage = {
    prompt_tokens: TokenCount.countMessages(request.messages),
    completion_tokens: TokenCount.count(text)
  }
  return Either.match(decodeText(request.schema, text), {
    onLeft: (why) =>
      Either.left(
        new ModelUnavailable({ reason: `the embedded model's ${request.name} answer is unusable: ${why}` })
      ),
    onRight: (value) => Either.right({ value, usage })
  })
}

/** The embedded model as the `LanguageModel` service, traced and counted as every adapter is (`ModelObservation`). */
export const make = (options: Options = {}): LanguageModel["Type"] =>
  observed(
    {
      provider,
      stream: (request: ModelRequest) =>
        Stream.suspend(() => Stream.fromIterable(eventsOf(replyTo(request, options)))),
      generate: (request: ModelRequest) => Effect.sync(() => replyTo(request, options)),
      structured: <A, I>(request: StructuredRequest<A, I>) => Effect.suspend(() => structuredAnswer(request))
    },
    { defaultModel: provider }
  )

/** The embedded model with no deployment limit on replies. */
export const layer: Layer.Layer<LanguageModel> = Layer.sync(LanguageModel, () => make())

/** The embedded model with the deployment's options. */
export const layerWith = (options: Options): Layer.Layer<LanguageModel> =>
  Layer.sync(LanguageModel, () => make(options))
