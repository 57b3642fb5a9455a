import type {
  FinishReason,
  ModelReply,
  TokenUsage,
  ToolCall
} from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { noUsage } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import {
  type LanguageModelError,
  ModelRefused,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { Either, Schema } from "effect"

/**
 * What a Chat Completions server answers, read leniently: fields the port does not use are ignored, and
 * what servers leave out or write differently (a missing usage, arguments as an object, no call id) has
 * a stated fallback, so one adapter serves OpenAI, vLLM, llama.cpp and Ollama.
 */

const optionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))

const WireUsage = Schema.Struct({
  prompt_tokens: optionalNullable(Schema.Number),
  completion_tokens: optionalNullable(Schema.Number)
})

const WireToolCall = Schema.Struct({
  index: optionalNullable(Schema.Number),
  id: optionalNullable(Schema.String),
  function: optionalNullable(
    Schema.Struct({ name: optionalNullable(Schema.String), arguments: Schema.optional(Schema.Unknown) })
  )
})
/** One tool call, or a fragment of one in a stream. */
export type WireToolCall = typeof WireToolCall.Type

const WireMessage = Schema.Struct({
  content: optionalNullable(Schema.String),
  refusal: optionalNullable(Schema.String),
  tool_calls: optionalNullable(Schema.Array(WireToolCall))
})

/** A whole (not streamed) completion. */
export const Completion = Schema.Struct({
  choices: Schema.Array(
    Schema.Struct({ message: WireMessage, finish_reason: optionalNullable(Schema.String) })
  ),
  usage: optionalNullable(WireUsage)
})
export type Completion = typeof Completion.Type

/** One `data:` event of a streamed completion: a delta of the first choice, the usage, or an error. */
export const Chunk = Schema.Struct({
  choices: optionalNullable(
    Schema.Array(
      Schema.Struct({
        index: optionalNullable(Schema.Number),
        delta: optionalNullable(WireMessage),
        finish_reason: optionalNullable(Schema.String)
      })
    )
  ),
  usage: optionalNullable(WireUsage),
  error: Schema.optional(Schema.Unknown)
})
export type Chunk = typeof Chunk.Type

const decodeCompletion = Schema.decodeUnknownEither(Completion)
const decodeChunk = Schema.decodeUnknownEither(Chunk)

/** A parsed JSON body as a completion, or why it is not one. */
export const completionOf = (json: unknown): Either.Either<Completion, ModelUnavailable> =>
  Either.mapLeft(
    decodeCompletion(json),
    () => new ModelUnavailable({ reason: "the provider's reply is not a chat completion" })
  )

/** A streamed event's data as a chunk, or why it is not one. */
export const chunkOf = (json: unknown): Either.Either<Chunk, ModelUnavailable> =>
  Either.mapLeft(
    decodeChunk(json),
    () =>
      new ModelUnavailable({ reason: "the provider's stream held an event that is not a completion chunk" })
  )

const count = (value: number | null | undefined) =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0

/** The provider's token counts (a count it left out is 0). */
export const usageOf = (wire: typeof WireUsage.Type): TokenUsage => ({
  prompt_tokens: count(wire.prompt_tokens),
  completion_tokens: count(wire.completion_tokens)
})

/** A call's arguments as text: as sent, or an object (some servers send one) written as JSON. */
export const argumentsText = (value: unknown): string =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value)

/**
 * The port's finish reason. A reply that made calls finished for them when the server says it merely
 * stopped (some servers say `stop` after calls); `function_call` is the older name of `tool_calls`.
 */
export const finishReasonOf = (wire: string | null | undefined, madeCalls: boolean): FinishReason => {
  switch (wire) {
    case "length":
      return "length"
    case "content_filter":
      return "content_filter"
    case "tool_calls":
    case "function_call":
      return "tool_calls"
    default:
      return madeCalls ? "tool_calls" : "stop"
  }
}

/** At most `max` characters of a model's text, for a reason. */
export const excerpt = (text: string, max = 120): string =>
  JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text)

/** A refusal as the port's error, with a short excerpt of the model's words. */
export const refused = (refusal: string): ModelRefused =>
  new ModelRefused({ reason: `the model refused: ${excerpt(refusal.trim())}` })

/** A call whose fragments or fields are all in: its id (the server's, else `call_<position>`) and name required. */
export const completeCall = (
  position: number,
  call: { readonly id: string | null; readonly name: string; readonly arguments: string }
): Either.Either<ToolCall, ModelUnavailable> =>
  call.name === ""
    ? Either.left(new ModelUnavailable({ reason: "the provider sent a tool call without a function name" }))
    : Either.right({ id: call.id ?? `call_${position}`, name: call.name, arguments: call.arguments })

/** A whole completion as a reply: its first choice's text and calls, its usage (0 when left out). */
export const replyOf = (completion: Completion): Either.Either<ModelReply, LanguageModelError> =>
  Either.gen(function* () {
    const choice = completion.choices[0]
    if (choice === undefined) {
      return yield* Either.left(new ModelUnavailable({ reason: "the provider's reply has no choices" }))
    }
    const { message } = choice
    if (typeof message.refusal === "string" && message.refusal !== "") {
      return yield* Either.left(refused(message.refusal))
    }
    const calls: Array<ToolCall> = []
    for (const [position, call] of (message.tool_calls ?? []).entries()) {
      calls.push(
        yield* completeCall(position, {
          id: call.id ?? null,
          name: call.function?.name ?? "",
          arguments: argumentsText(call.function?.arguments)
        })
      )
    }
    return {
      text: message.content ?? "",
      tool_calls: calls,
      usage: completion.usage == null ? noUsage : usageOf(completion.usage),
      finish_reason: finishReasonOf(choice.finish_reason, calls.length > 0)
    }
  })
