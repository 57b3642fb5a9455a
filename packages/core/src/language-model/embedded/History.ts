import type { ModelMessage, ToolCall } from "../LanguageModel.js"
import type { Turn } from "./FieldExtraction.js"

/**
 * A request's messages as the embedded model reads them: the spoken turns (system messages are prose it
 * cannot read), the function calls made so far, and the function results it is to answer now.
 */

/** A function's result the model has not answered yet, with the call it answers when that is known. */
export interface PendingResult {
  readonly call: ToolCall | undefined
  readonly content: string
}

export interface History {
  /** User turns and assistant turns with text, in order. */
  readonly turns: ReadonlyArray<Turn>
  /** Every function call of the conversation, in order. */
  readonly calls: ReadonlyArray<ToolCall>
  /** The results after the last assistant message, when the conversation ends with them. */
  readonly results: ReadonlyArray<PendingResult>
  /** Who spoke last, system messages aside. */
  readonly last: "user" | "assistant" | "tool" | "none"
  /** Every call id in use (calls and the results answering them). */
  readonly ids: ReadonlySet<string>
}

/** Reads the messages. */
export const read = (messages: ReadonlyArray<ModelMessage>): History => {
  const turns: Array<Turn> = []
  const calls: Array<ToolCall> = []
  const ids = new Set<string>()
  let results: Array<PendingResult> = []
  let lastCalls: ReadonlyArray<ToolCall> = []
  let last: History["last"] = "none"
  for (const message of messages) {
    switch (message.role) {
      case "system":
        break
      case "user":
        if (message.content.trim() !== "") turns.push({ role: "user", text: message.content })
        results = []
        last = "user"
        break
      case "assistant":
        if (message.content.trim() !== "") turns.push({ role: "assistant", text: message.content })
        lastCalls = message.tool_calls ?? []
        for (const call of lastCalls) {
          calls.push(call)
          ids.add(call.id)
        }
        results = []
        last = "assistant"
        break
      case "tool":
        ids.add(message.tool_call_id)
        results.push({
          call: lastCalls.find((call) => call.id === message.tool_call_id),
          content: message.content
        })
        last = "tool"
        break
    }
  }
  return { turns, calls, results: last === "tool" ? results : [], last, ids }
}

/** True when the conversation has already called the function. */
export const hasCalled = (history: History, name: string): boolean =>
  history.calls.some((call) => call.name === name)

/**
 * `count` new call ids, `call_<n>` numbered on from the calls already made and skipping any id in use:
 * unique within the conversation, and the same for the same conversation.
 */
export const newCallIds = (history: History, count: number): ReadonlyArray<string> => {
  const fresh: Array<string> = []
  let n = history.calls.length + 1
  while (fresh.length < count) {
    const id = `call_${n}`
    if (!history.ids.has(id)) fresh.push(id)
    n++
  }
  return fresh
}

/** The last user turn, when the conversation's last word is the user's. */
export const lastUserTurn = (history: History): string | undefined => {
  const turn = history.turns.at(-1)
  return history.last === "user" && turn?.role === "user" ? turn.text : undefined
}

/** The assistant turn just before the last turn, when there is one. */
export const previousAssistantTurn = (history: History): string | undefined => {
  const before = history.turns.at(-2)
  return before?.role === "assistant" ? before.text : undefined
}
