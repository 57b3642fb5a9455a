import { Schema } from "effect"

/** How a call can end. */
export const EndStatus = Schema.Literal("completed", "busy", "no_answer", "failed", "canceled")
export type EndStatus = typeof EndStatus.Type

/** The longest duration a call may report: a day. */
export const maxDurationSeconds = 24 * 60 * 60
