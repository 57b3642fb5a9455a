import type { ServerEvent } from "../../api/EventStream.js"

/** One entry of a chat as the console shows it: something said, or a tool the agent ran. */
export type ChatEntry =
  | { readonly kind: "said"; readonly role: "user" | "assistant"; readonly text: string }
  | { readonly kind: "tool"; readonly name: string; readonly ok: boolean; readonly error: string | null }

/** A chat so far: the entries, the reply being written (its deltas joined), and whether the chat ended. */
export interface ChatLog {
  readonly entries: ReadonlyArray<ChatEntry>
  /** The agent's reply while it streams; undefined when no reply is being written. */
  readonly writing: string | undefined
  readonly ended: boolean
  /** Why the reply failed after it started (`event: error`). */
  readonly failure: string | undefined
}

/** A chat with nothing said. */
export const emptyLog: ChatLog = { entries: [], writing: undefined, ended: false, failure: undefined }

/** The person's message added, and the agent's reply begun. */
export const sent = (log: ChatLog, text: string | undefined): ChatLog => ({
  ...log,
  entries: text === undefined ? log.entries : [...log.entries, { kind: "said", role: "user", text }],
  writing: "",
  failure: undefined
})

const parsed = (data: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(data)
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The chat after one event of the reply's stream (docs/http.md, "Chats"): `delta` adds to the reply being
 * written, `tool_call` notes a tool the agent ran, `done` closes the reply with its whole text (and says
 * whether the agent ended the chat), `error` ends the reply with its reason. Unknown events are ignored.
 */
export const applyEvent = (log: ChatLog, event: ServerEvent): ChatLog => {
  const data = parsed(event.data)
  switch (event.event) {
    case "delta":
      return typeof data?.["text"] === "string"
        ? { ...log, writing: (log.writing ?? "") + data["text"] }
        : log
    case "tool_call": {
      if (data === undefined) return log
      const name = typeof data["name"] === "string" ? data["name"] : "a tool"
      const tool: ChatEntry = {
        kind: "tool",
        name,
        ok: data["ok"] === true,
        error: typeof data["error"] === "string" ? data["error"] : null
      }
      return { ...log, entries: [...log.entries, tool] }
    }
    case "done": {
      const reply = data?.["reply"] as { text?: unknown } | undefined
      const text = typeof reply?.text === "string" ? reply.text : (log.writing ?? "")
      const entries: ReadonlyArray<ChatEntry> =
        text === "" ? log.entries : [...log.entries, { kind: "said", role: "assistant", text }]
      return { ...log, entries, writing: undefined, ended: log.ended || data?.["ended"] === true }
    }
    case "error": {
      const detail = typeof data?.["detail"] === "string" ? data["detail"] : "The reply failed."
      return { ...log, writing: undefined, failure: detail }
    }
    default:
      return log
  }
}

/** The reply's stream closed: what was still being written is dropped (the API keeps nothing of it). */
export const streamClosed = (log: ChatLog): ChatLog =>
  log.writing === undefined
    ? log
    : { ...log, writing: undefined, failure: log.failure ?? "The reply was cut off." }
