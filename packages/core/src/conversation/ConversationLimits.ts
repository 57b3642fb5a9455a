/**
 * The bounds of a conversation with an agent (docs/limits.md, "Conversations"). Each is the same for
 * every channel (chat now, calls and browser sessions with voice).
 */

/** The longest message a user may send, in characters. */
export const maxUserTextChars = 4_000

/** The most user messages one run takes; one more is refused. */
export const maxUserTurns = 200

/** The most tool calls one reply makes; then the model must answer in words. */
export const maxToolCallsPerTurn = 5

/** The knowledge chunks given to the model for a user message, at most. */
export const knowledgeChunks = 3

/** The most characters of knowledge given for a user message (the chunks, cut to fit). */
export const knowledgeChars = 6_000

/**
 * The most characters of history sent with a request (what was said and the tools' calls and results);
 * older parts are left out first, never the system prompt or the new message. About 6,000 tokens.
 */
export const historyChars = 24_000

/** The longest a reply (its model requests and tool calls together) may take before it is given up. */
export const replyTimeoutMillis = 120_000

/**
 * The most characters of an agent's system prompt given to the model, once `{{initial_context.*}}` is
 * filled (a prompt may be 100,000 characters, more after accepted improvements, and a placeholder may be
 * filled with a large value): the rest is left out.
 */
export const systemPromptChars = 120_000

/** The most characters of an agent's first message once filled. */
export const firstMessageChars = 10_000

/** The most characters of a tool call's result given back to the model (as a run's log keeps it: 4 KiB). */
export const toolResultChars = 4_096
