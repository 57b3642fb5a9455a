import type { ModelMessage } from "../language-model/LanguageModel.js"
import type { RunLogEntry } from "../runs/Run.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as ToolCallPlacement from "./ToolCallPlacement.js"

/**
 * A conversation so far, as a model is given it: what was said (the transcript's fragments) and the tools
 * called in between (the run's tool-call log lines), in time order, trimmed to a budget.
 */

/** Something said. */
export interface SpokenItem {
  readonly _tag: "Spoken"
  readonly role: "user" | "assistant"
  readonly text: string
  readonly timestamp: Date
}

/** A tool call made during the conversation and what it gave. */
export interface ToolItem {
  readonly _tag: "Tool"
  readonly function_name: string
  readonly arguments: Readonly<Record<string, unknown>>
  /** What the model is told the call gave (JSON text). */
  readonly result: string
  readonly timestamp: Date
}

export type HistoryItem = SpokenItem | ToolItem

/** A logged call's result as the model is told it: whether it worked, its response or its error. */
export const loggedResult = (entry: NonNullable<RunLogEntry["tool_call"]>): string => {
  let response: unknown = entry.response
  if (entry.response !== null) {
    try {
      response = JSON.parse(entry.response)
    } catch {
      // a response cut to the log's bound is no longer JSON: it is given as the text it is
    }
  }
  return JSON.stringify(
    entry.outcome === "ok" ? { ok: true, response } : { ok: false, error: entry.error_type, response }
  )
}

/**
 * The history of a run: its fragments in the order they were kept (their own order), and the tool calls in
 * its logs (those of tools `functionNameOf` knows; a call of a tool the agent no longer has is left out)
 * each placed after the last thing the user said at or before it: a reply's tool calls run after the
 * message they answer arrived and before the reply is kept.
 */
export const fromRun = (
  fragments: ReadonlyArray<TranscriptFragment>,
  logs: ReadonlyArray<RunLogEntry>,
  functionNameOf: (toolUuid: string) => string | undefined
): ReadonlyArray<HistoryItem> => {
  const spoken: ReadonlyArray<SpokenItem> = fragments.map((f) => ({
    _tag: "Spoken",
    role: f.role,
    text: f.text,
    timestamp: f.timestamp
  }))
  const tools = logs.flatMap((entry): ReadonlyArray<ToolItem> => {
    const call = entry.tool_call
    const name = call === undefined ? undefined : functionNameOf(call.tool_uuid)
    return call === undefined || name === undefined
      ? []
      : [
          {
            _tag: "Tool",
            function_name: name,
            arguments: call.arguments,
            result: loggedResult(call),
            timestamp: entry.timestamp
          }
        ]
  })
  return ToolCallPlacement.interleave(spoken, tools, {
    timeOfSaid: (item) => item.timestamp.getTime(),
    timeOfCall: (item) => item.timestamp.getTime(),
    isUser: (item) => item.role === "user"
  })
}

/** The characters an item costs in the budget. */
const sizeOf = (item: HistoryItem): number =>
  item._tag === "Spoken"
    ? item.text.length
    : item.function_name.length + JSON.stringify(item.arguments).length + item.result.length

/**
 * The newest items whose sizes fit `budgetChars`, oldest dropped first (a tool call goes whole, with its
 * result). The newest item is kept even alone over the budget: a conversation is never sent empty-handed.
 */
export const trim = (items: ReadonlyArray<HistoryItem>, budgetChars: number): ReadonlyArray<HistoryItem> => {
  let used = 0
  let first = items.length
  while (first > 0) {
    const size = sizeOf(items[first - 1]!)
    if (first < items.length && used + size > budgetChars) break
    used += size
    first -= 1
  }
  return items.slice(first)
}

/** The items as model messages; a tool call is an assistant message with the call, then its result. */
export const toMessages = (items: ReadonlyArray<HistoryItem>): ReadonlyArray<ModelMessage> =>
  items.flatMap((item, index): ReadonlyArray<ModelMessage> => {
    if (item._tag === "Spoken") return [{ role: item.role, content: item.text }]
    const id = `call_h${index + 1}`
    return [
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id, name: item.function_name, arguments: JSON.stringify(item.arguments) }]
      },
      { role: "tool", tool_call_id: id, content: item.result }
    ]
  })
