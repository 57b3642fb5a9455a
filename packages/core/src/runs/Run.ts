import { Schema } from "effect"
import { AgentDefinitionId, AgentId, AgentPublicId } from "../agents/AgentIds.js"
import { Currency, MinorUnits } from "../money/Money.js"
import { OrganizationId } from "../organizations/Organization.js"
import { ToolCallRecord } from "../tools/ToolCallLog.js"
import { RunId } from "./RunId.js"

/** How a run talks: a phone call, a browser session, or a text chat. */
export const RunMode = Schema.Literal("phone", "webrtc", "smallwebrtc", "chat")
export type RunMode = typeof RunMode.Type

/**
 * A run's life: `initialized` (a record only), `queued`, `ringing`, `in_progress`, then one final status.
 */
export const RunStatus = Schema.Literal(
  "initialized",
  "queued",
  "ringing",
  "in_progress",
  "completed",
  "busy",
  "no_answer",
  "failed",
  "canceled"
)
export type RunStatus = typeof RunStatus.Type

/** Statuses after which nothing about the call changes any more. */
export const finalStatuses: ReadonlyArray<RunStatus> = [
  "completed",
  "busy",
  "no_answer",
  "failed",
  "canceled"
]

/** True while a call is being set up or talked: it holds a channel and its files are not saved yet. */
export const isLive = (status: RunStatus): boolean =>
  status === "queued" || status === "ringing" || status === "in_progress"

/** True once the call has ended; a record-only run (`initialized`) is not final. */
export const isFinal = (status: RunStatus): boolean => finalStatuses.includes(status)

export const RunLogEntry = Schema.Struct({
  timestamp: Schema.DateFromSelf,
  level: Schema.Literal("debug", "info", "warning", "error"),
  message: Schema.String,
  /** Present on the line of a tool call made during the run. */
  tool_call: Schema.optionalWith(ToolCallRecord, { exact: true })
})
export type RunLogEntry = typeof RunLogEntry.Type

export const SmsMessage = Schema.Struct({
  to: Schema.String,
  text: Schema.String,
  sent_at: Schema.DateFromSelf
})
export type SmsMessage = typeof SmsMessage.Type

/** A record of one attempt to hand the run's data to an integration (a CRM, a scheduler). */
export const IntegrationDelivery = Schema.Struct({
  connection_id: Schema.String,
  status: Schema.Literal("delivered", "failed"),
  detail: Schema.NullOr(Schema.String),
  delivered_at: Schema.DateFromSelf
})
export type IntegrationDelivery = typeof IntegrationDelivery.Type

/** Storage keys of a run's files, null until saved. A key stays after retention removed its file. */
export const RunFiles = Schema.Struct({
  recording: Schema.NullOr(Schema.String),
  transcript: Schema.NullOr(Schema.String)
})
export type RunFiles = typeof RunFiles.Type

/**
 * Where a run's analysis stands (see `analysis/`): `pending` until the model has read the conversation,
 * then `completed` or `failed` (with `analysis_error`); `skipped` for a run that ended without a
 * conversation (nobody answered, nothing was said). Null while the run has not ended.
 */
export const AnalysisStatus = Schema.Literal("pending", "completed", "failed", "skipped")
export type AnalysisStatus = typeof AnalysisStatus.Type

/** A run: one call, browser session or chat of an agent. */
export const Run = Schema.Struct({
  workflow_run_id: RunId,
  workflow_id: AgentId,
  /**
   * The definition version of the agent the run was placed with: its prompt, tools and transfer numbers
   * hold for the whole call. Null for runs stored before versions were recorded (their agent's current
   * version stands in).
   */
  agent_definition_id: Schema.NullOr(AgentDefinitionId),
  organization_id: OrganizationId,
  mode: RunMode,
  status: RunStatus,
  name: Schema.NullOr(Schema.String),
  /** The called number, E.164; also kept in `initial_context.phone_number`. */
  phone_number: Schema.NullOr(Schema.String),
  initial_context: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  gathered_context: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  duration_seconds: Schema.NullOr(Schema.NonNegativeInt),
  cost: Schema.NullOr(MinorUnits),
  currency: Currency,
  disposition: Schema.NullOr(Schema.String),
  campaign_id: Schema.NullOr(Schema.Int),
  trigger_id: Schema.NullOr(Schema.String),
  logs: Schema.Array(RunLogEntry),
  sms: Schema.Array(SmsMessage),
  integration_deliveries: Schema.Array(IntegrationDelivery),
  files: RunFiles,
  /** The outbound channel the call holds while it is live. */
  channel_reservation_id: Schema.NullOr(Schema.String),
  /**
   * Whether a transcript fragment was ever kept for the call while it was live (`CallFragmentStore.append`
   * marks the run; nothing unmarks it): a call's end reads the fragments only then.
   */
  fragments_kept: Schema.Boolean,
  /** What the analysis after the run said happened, at most 500 characters; null until then. */
  summary: Schema.NullOr(Schema.String),
  analysis_status: Schema.NullOr(AnalysisStatus),
  /** Why the analysis failed, for people to read; null unless it did. */
  analysis_error: Schema.NullOr(Schema.String),
  /** Tokens the run's language-model requests used (the conversation's and its analysis'). */
  model_prompt_tokens: Schema.NonNegativeInt,
  model_completion_tokens: Schema.NonNegativeInt,
  /**
   * What those tokens were charged (grosze, at `ModelPricing`): the conversation's when the run ended,
   * the analysis' added when it finished. Null until the run ended. `cost` is the call's own charge.
   */
  model_cost: Schema.NullOr(MinorUnits),
  /** When a chat last had a message (a chat idle for `CHAT_IDLE_SECONDS` ends); null for other runs. */
  last_activity_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf,
  ended_at: Schema.NullOr(Schema.DateFromSelf)
})
export type Run = typeof Run.Type

/** The fields a store gives a new run (none of them says anything before the run ends or talks). */
export const newRunDefaults = {
  fragments_kept: false,
  summary: null,
  analysis_status: null,
  analysis_error: null,
  model_prompt_tokens: 0,
  model_completion_tokens: 0,
  model_cost: null,
  last_activity_at: null
} as const satisfies Partial<Run>

/**
 * A run as lists show it: what a page of runs needs, without its logs, SMS, deliveries, files and
 * billing, so that a store can read a page without them.
 */
export const RunSummary = Run.pick(
  "workflow_run_id",
  "workflow_id",
  "organization_id",
  "mode",
  "status",
  "initial_context",
  "gathered_context",
  "duration_seconds",
  "created_at",
  "ended_at"
)
export type RunSummary = typeof RunSummary.Type

/**
 * A run as the organization's list of every agent's runs shows it: the summary, the called number, the
 * disposition the analysis chose, and its agent's public id and name (as the agent is named now).
 */
export const RunListing = Schema.Struct({
  ...RunSummary.fields,
  ...Run.pick("phone_number", "disposition").fields,
  agent_public_id: AgentPublicId,
  agent_name: Schema.String
})
export type RunListing = typeof RunListing.Type

/** Whether a run passes a list's filter (the in-memory stores' version of the SQL lists' WHERE). */
export const matchesFilter = (
  run: Pick<Run, "status" | "created_at" | "phone_number" | "disposition" | "mode">,
  filter: {
    readonly status?: RunStatus
    readonly created_after?: Date
    readonly created_before?: Date
    readonly phone_number?: string
    readonly disposition?: string
    readonly mode?: RunMode
  }
): boolean =>
  (filter.status === undefined || run.status === filter.status) &&
  (filter.created_after === undefined || run.created_at.getTime() >= filter.created_after.getTime()) &&
  (filter.created_before === undefined || run.created_at.getTime() < filter.created_before.getTime()) &&
  (filter.phone_number === undefined || run.phone_number === filter.phone_number) &&
  (filter.disposition === undefined || run.disposition === filter.disposition) &&
  (filter.mode === undefined || run.mode === filter.mode)
