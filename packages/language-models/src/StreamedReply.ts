import type {
  ModelEvent,
  TokenUsage,
  ToolCall
} from "@voice-agent-platform/core/language-model/LanguageModel.js"
import {
  type LanguageModelError,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { Either } from "effect"
import {
  argumentsText,
  type Chunk,
  completeCall,
  finishReasonOf,
  refused,
  usageOf,
  type WireToolCall
} from "./ChatCompletionsReply.js"
import * as ProviderErrors from "./ProviderErrors.js"

/**
 * A streamed completion put back together, chunk by chunk: text is passed on as it arrives; a tool call
 * comes in fragments keyed by `index` (its id and name first, its arguments in pieces, several calls
 * interleaved), so calls are held until the server says the reply finished (a `finish_reason`, else the
 * stream's end) and then passed on whole, in index order; the usage chunk (which comes after the finish,
 * with `stream_options.include_usage`) is kept and passed on once, at the end, before the `Finish`.
 *
 * Usage is passed on only when the server sent it: a stream without usage has no `Usage` event (a
 * `generate` of the same request reports the server's count; a stream cannot invent one).
 */

/** A call whose fragments are still coming. */
interface PendingCall {
  readonly index: number
  readonly id: string | null
  readonly name: string
  readonly arguments: string
}

/** What the stream has said so far that is not passed on yet. */
export interface Assembly {
  readonly calls: ReadonlyArray<PendingCall>
  /** Whether the calls were passed on (the server said the reply finished). */
  readonly callsSent: boolean
  /** The server's finish reason, once it gave one. */
  readonly finishReason: string | null
  /** The last usage the server sent (servers that repeat it send running totals). */
  readonly usage: TokenUsage | null
  /** A refusal, which the model may stream in pieces like text. */
  readonly refusal: string
}

export const initial: Assembly = { calls: [], callsSent: false, finishReason: null, usage: null, refusal: "" }

/**
 * The index a fragment belongs to: its own; without one (servers that send whole calls), a fragment with
 * an id or a name opens a new call and anything else continues the last one.
 */
const indexOf = (calls: ReadonlyArray<PendingCall>, fragment: WireToolCall): number => {
  if (typeof fragment.index === "number") return fragment.index
  const last = calls[calls.length - 1]
  const opens = (fragment.id ?? "") !== "" || (fragment.function?.name ?? "") !== ""
  return last === undefined ? 0 : opens ? Math.max(...calls.map((call) => call.index)) + 1 : last.index
}

/** A fragment merged into the calls: a new index opens a call, a known one gets its id, name or more arguments. */
const merge = (calls: ReadonlyArray<PendingCall>, fragment: WireToolCall): ReadonlyArray<PendingCall> => {
  const index = indexOf(calls, fragment)
  const name = fragment.function?.name ?? ""
  const pieces = argumentsText(fragment.function?.arguments)
  const found = calls.findIndex((call) => call.index === index)
  if (found === -1) {
    return [...calls, { index, id: fragment.id ?? null, name, arguments: pieces }]
  }
  const call = calls[found]!
  const merged: PendingCall = {
    index,
    id: call.id ?? fragment.id ?? null,
    // servers that repeat the name in every fragment must not make it twice as long
    name: call.name === "" ? name : call.name,
    arguments: call.arguments + pieces
  }
  return [...calls.slice(0, found), merged, ...calls.slice(found + 1)]
}

/** The calls, whole and in index order. */
const wholeCalls = (
  calls: ReadonlyArray<PendingCall>
): Either.Either<ReadonlyArray<ToolCall>, ModelUnavailable> =>
  Either.all(
    [...calls].sort((a, b) => a.index - b.index).map((call, position) => completeCall(position, call))
  )

/** The assembly after one chunk, and the events it lets out; or the error the chunk reports. */
export const add = (
  assembly: Assembly,
  chunk: Chunk
): Either.Either<readonly [Assembly, ReadonlyArray<ModelEvent>], LanguageModelError> =>
  Either.gen(function* () {
    if (chunk.error !== undefined && chunk.error !== null) {
      return yield* Either.left(ProviderErrors.fromStreamedError(chunk))
    }
    const events: Array<ModelEvent> = []
    let next = assembly
    for (const choice of chunk.choices ?? []) {
      // only one reply is asked for (`n` 1): other choices are not the reply
      if ((choice.index ?? 0) !== 0) continue
      const delta = choice.delta
      if (typeof delta?.content === "string" && delta.content !== "") {
        events.push({ _tag: "TextDelta", text: delta.content })
      }
      if (typeof delta?.refusal === "string") next = { ...next, refusal: next.refusal + delta.refusal }
      const fragments = delta?.tool_calls ?? []
      if (fragments.length > 0 && next.callsSent) {
        return yield* Either.left(
          new ModelUnavailable({ reason: "the provider sent tool call fragments after the reply finished" })
        )
      }
      let calls = next.calls
      for (const fragment of fragments) calls = merge(calls, fragment)
      next = { ...next, calls }
      if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") {
        next = { ...next, finishReason: choice.finish_reason }
        if (!next.callsSent && next.refusal === "") {
          const whole = yield* wholeCalls(next.calls)
          for (const call of whole) events.push({ _tag: "ToolCall", call })
          next = { ...next, callsSent: true }
        }
      }
    }
    if (chunk.usage !== undefined && chunk.usage !== null) next = { ...next, usage: usageOf(chunk.usage) }
    return [next, events] as const
  })

/**
 * The events that close the reply once the stream has ended: calls not passed on yet, the usage when the
 * server sent one, and the finish. `sawDone` is whether the server ended with `data: [DONE]`: a stream
 * that ends with neither it nor a finish reason was cut off, which is not a reply.
 */
export const end = (
  assembly: Assembly,
  sawDone: boolean
): Either.Either<ReadonlyArray<ModelEvent>, LanguageModelError> =>
  Either.gen(function* () {
    if (assembly.refusal !== "") return yield* Either.left(refused(assembly.refusal))
    if (!sawDone && assembly.finishReason === null) {
      return yield* Either.left(
        new ModelUnavailable({ reason: "the provider's stream ended before the reply finished" })
      )
    }
    const events: Array<ModelEvent> = []
    if (!assembly.callsSent) {
      for (const call of yield* wholeCalls(assembly.calls)) events.push({ _tag: "ToolCall", call })
    }
    if (assembly.usage !== null) events.push({ _tag: "Usage", usage: assembly.usage })
    events.push({ _tag: "Finish", reason: finishReasonOf(assembly.finishReason, assembly.calls.length > 0) })
    return events
  })
