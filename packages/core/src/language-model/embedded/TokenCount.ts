import type { ModelMessage, ToolCall } from "../LanguageModel.js"

/**
 * The embedded model's tokens: every run of letters and digits is one, and so is every other character
 * that is not a space. Close enough to a real tokenizer's count for budgets and prices, and the same for
 * the same text on every machine.
 */

const tokenPattern = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu

/** The tokens of a text. */
export const count = (text: string): number => {
  let n = 0
  for (const _ of text.matchAll(tokenPattern)) n++
  return n
}

/** The tokens of function calls: their names and arguments. */
export const countCalls = (calls: ReadonlyArray<ToolCall>): number =>
  calls.reduce((sum, call) => sum + count(call.name) + count(call.arguments), 0)

/** The prompt's tokens: every message's text, and the calls an assistant message holds. */
export const countMessages = (messages: ReadonlyArray<ModelMessage>): number =>
  messages.reduce(
    (sum, message) =>
      sum +
      count(message.content) +
      (message.role === "assistant" ? countCalls(message.tool_calls ?? []) : 0),
    0
  )

/**
 * The text cut after its first `limit` tokens (the spaces after the last one dropped), as a model that
 * reached its `max_tokens` stops.
 */
export const cutAfter = (text: string, limit: number): string => {
  if (limit <= 0) return ""
  let n = 0
  for (const m of text.matchAll(tokenPattern)) {
    n++
    if (n === limit) return text.slice(0, m.index + m[0].length)
  }
  return text
}

/**
 * The text in stream deltas: a word each, with the spaces after it (spaces before the first word are a
 * delta of their own). The deltas joined are the text.
 */
export const deltas = (text: string): ReadonlyArray<string> => text.match(/^\s+|\S+\s*/g) ?? []
