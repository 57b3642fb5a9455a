import { Schema } from "effect"
import type { Run, RunStatus } from "../runs/Run.js"
import { RunLogEntry } from "../runs/Run.js"
import type { RunNotFound } from "../runs/RunErrors.js"
import { Role } from "../transcripts/Transcript.js"
import { EndStatus, maxDurationSeconds } from "./CallEnd.js"
import type { CallAlreadyEnded, InvalidRecording } from "./CallEventErrors.js"

/**
 * What a voice runtime reports about a call, in the order it happens: it rings (`started` is the same as
 * `ringing`), is answered, people speak (`fragment`), the agent gathers data, sends an SMS, logs, hands
 * over the recording, and the call ends with its talk time in seconds (fractions allowed).
 */
export const CallEvent = Schema.Union(
  Schema.Struct({ type: Schema.Literal("started", "ringing") }),
  Schema.Struct({ type: Schema.Literal("answered") }),
  Schema.Struct({
    type: Schema.Literal("fragment"),
    role: Role,
    text: Schema.String,
    timestamp: Schema.ValidDateFromSelf
  }),
  Schema.Struct({
    type: Schema.Literal("gathered"),
    values: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  }),
  Schema.Struct({ type: Schema.Literal("sms"), to: Schema.String, text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("log"), level: RunLogEntry.fields.level, message: Schema.String }),
  Schema.Struct({ type: Schema.Literal("recording"), bytes: Schema.Uint8ArrayFromSelf }),
  Schema.Struct({
    type: Schema.Literal("ended"),
    status: EndStatus,
    duration_seconds: Schema.Number.pipe(Schema.between(0, maxDurationSeconds))
  })
).annotations({ identifier: "CallEvent" })
export type CallEvent = typeof CallEvent.Type

/** What became of an event: applied, or ignored because it repeated or reordered an earlier status. */
export type CallEventOutcome =
  { readonly _tag: "Applied"; readonly run: Run } | { readonly _tag: "Ignored"; readonly run: Run }

export type CallEventError = RunNotFound | CallAlreadyEnded | InvalidRecording

/** The status an event reports, or null for an event that carries content only. */
export const reportedStatus = (event: CallEvent): RunStatus | null => {
  switch (event.type) {
    case "started":
    case "ringing":
      return "ringing"
    case "answered":
      return "in_progress"
    case "ended":
      return event.status
    default:
      return null
  }
}
