import type { FinishReason, ModelEvent, ModelReply, TokenUsage, ToolCall } from "./LanguageModel.js"
import { addUsage, noUsage } from "./LanguageModel.js"

/** A reply being put together from a stream's events. */
export interface ReplySoFar {
  readonly text: string
  readonly tool_calls: ReadonlyArray<ToolCall>
  readonly usage: TokenUsage
  readonly finish_reason: FinishReason | null
}

export const empty: ReplySoFar = { text: "", tool_calls: [], usage: noUsage, finish_reason: null }

/** The reply with one more event: text appended, a call added, usage summed, the finish recorded. */
export const add = (reply: ReplySoFar, event: ModelEvent): ReplySoFar => {
  switch (event._tag) {
    case "TextDelta":
      return { ...reply, text: reply.text + event.text }
    case "ToolCall":
      return { ...reply, tool_calls: [...reply.tool_calls, event.call] }
    case "Usage":
      return { ...reply, usage: addUsage(reply.usage, event.usage) }
    case "Finish":
      return { ...reply, finish_reason: event.reason }
  }
}

/**
 * The whole reply. A stream that never said why it stopped finished because of its tool calls when it
 * made some, else normally.
 */
export const finish = (reply: ReplySoFar): ModelReply => ({
  text: reply.text,
  tool_calls: reply.tool_calls,
  usage: reply.usage,
  finish_reason: reply.finish_reason ?? (reply.tool_calls.length > 0 ? "tool_calls" : "stop")
})

/** The events a whole reply streams as: its text in one delta, its calls, its usage, its finish. */
export const toEvents = (reply: ModelReply): ReadonlyArray<ModelEvent> => [
  ...(reply.text === "" ? [] : [{ _tag: "TextDelta" as const, text: reply.text }]),
  ...reply.tool_calls.map((call) => ({ _tag: "ToolCall" as const, call })),
  { _tag: "Usage", usage: reply.usage },
  { _tag: "Finish", reason: reply.finish_reason }
]
