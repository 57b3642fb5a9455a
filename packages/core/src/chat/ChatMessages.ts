import type { RunLogEntry } from "../runs/Run.js"
import * as ToolCallPlacement from "../conversation/ToolCallPlacement.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"

/**
 * A chat's conversation as its messages endpoint lists it: what was said (the transcript's fragments, in
 * their order) and, in place, the tool calls the agent made (the run's tool-call log lines), each after the
 * user message it answered (`ToolCallPlacement`, as the model's history is ordered).
 */

/** A tool call as the list shows it. */
export interface ListedToolCall {
  readonly tool_uuid: string
  readonly name: string | null
  readonly ok: boolean
  readonly error: string | null
}

/** One entry of the list: a message, or a tool call (`role: "tool"`, no text). */
export interface ChatMessage {
  readonly role: "user" | "assistant" | "tool"
  readonly text: string | null
  readonly timestamp: Date
  readonly tool_call: ListedToolCall | null
}

/** The list: fragments in order, each tool call after the last user message at or before it. */
export const list = (
  fragments: ReadonlyArray<TranscriptFragment>,
  logs: ReadonlyArray<RunLogEntry>,
  toolNameOf: (toolUuid: string) => string | null
): ReadonlyArray<ChatMessage> => {
  const said: ReadonlyArray<ChatMessage> = fragments.map((f) => ({
    role: f.role,
    text: f.text,
    timestamp: f.timestamp,
    tool_call: null
  }))
  const calls = logs.flatMap((entry): ReadonlyArray<ChatMessage> =>
    entry.tool_call === undefined
      ? []
      : [
          {
            role: "tool",
            text: null,
            timestamp: entry.timestamp,
            tool_call: {
              tool_uuid: entry.tool_call.tool_uuid,
              name: toolNameOf(entry.tool_call.tool_uuid),
              ok: entry.tool_call.outcome === "ok",
              error: entry.tool_call.error_type
            }
          }
        ]
  )
  const time = (message: ChatMessage) => message.timestamp.getTime()
  return ToolCallPlacement.interleave(said, calls, {
    timeOfSaid: time,
    timeOfCall: time,
    isUser: (message) => message.role === "user"
  })
}
