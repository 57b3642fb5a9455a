import { Schema } from "effect"

/**
 * Timestamps are a valid `Date` in the domain (`Schema.Date`): they decode from and encode to an ISO 8601
 * string, and Date's millisecond precision is what the raw transcript file keeps.
 */

/** Who spoke: `user` is the caller, `assistant` the agent. */
export const Role = Schema.Literal("user", "assistant").annotations({ identifier: "Role" })
export type Role = typeof Role.Type

/** One utterance as the voice runtime reports it. */
export const TranscriptFragment = Schema.Struct({
  role: Role,
  text: Schema.String,
  timestamp: Schema.Date
}).annotations({ identifier: "TranscriptFragment" })
export type TranscriptFragment = typeof TranscriptFragment.Type

/** Consecutive fragments of one role, joined: `start`/`end` are its first and last fragment's timestamps. */
export const TranscriptTurn = Schema.Struct({
  role: Role,
  text: Schema.String,
  start: Schema.Date,
  end: Schema.Date
}).annotations({ identifier: "TranscriptTurn" })
export type TranscriptTurn = typeof TranscriptTurn.Type
