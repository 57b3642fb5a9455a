import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { Currency, MinorUnits } from "../money/Money.js"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"

export const UsageRecordId = Schema.Int.pipe(Schema.positive(), Schema.brand("UsageRecordId"))
export type UsageRecordId = typeof UsageRecordId.Type

/**
 * What a ledger line charges: `call`, a run's end (its talk time at `CallRates` and its conversation's
 * language-model tokens; one per run); `analysis`, the model's reading of a run after it ended (one per
 * run); `improvements`, a generation of an agent's improvement suggestions (no run); `prompt`, the model's
 * writing of an agent's prompt from a call script (`generate_with_ai`; no run).
 */
export const UsageKind = Schema.Literal("call", "analysis", "improvements", "prompt")
export type UsageKind = typeof UsageKind.Type

/**
 * A billing-ledger line. It outlives the run: deleting a call erases the conversation but keeps its
 * duration and cost here. Only `call` lines count as calls and carry a duration.
 */
export const UsageRecord = Schema.Struct({
  id: UsageRecordId,
  organization_id: OrganizationId,
  kind: UsageKind,
  /** The run charged; null only for an `improvements` or `prompt` line. */
  run_id: Schema.NullOr(RunId),
  agent_id: AgentId,
  mode: Schema.String,
  duration_seconds: Schema.NonNegativeInt,
  cost: MinorUnits,
  /** The language-model tokens the line charges (part of `cost`). */
  prompt_tokens: Schema.NonNegativeInt,
  completion_tokens: Schema.NonNegativeInt,
  currency: Currency,
  recorded_at: Schema.DateFromSelf
})
export type UsageRecord = typeof UsageRecord.Type
