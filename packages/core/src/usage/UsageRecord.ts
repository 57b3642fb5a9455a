import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { Currency, MinorUnits } from "../money/Money.js"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"

export const UsageRecordId = Schema.Int.pipe(Schema.positive(), Schema.brand("UsageRecordId"))
export type UsageRecordId = typeof UsageRecordId.Type

/**
 * A billing-ledger line, written when a call ends. It outlives the run: deleting a call erases the
 * conversation but keeps its duration and cost here.
 */
export const UsageRecord = Schema.Struct({
  id: UsageRecordId,
  organization_id: OrganizationId,
  run_id: RunId,
  agent_id: AgentId,
  mode: Schema.String,
  duration_seconds: Schema.NonNegativeInt,
  cost: MinorUnits,
  currency: Currency,
  recorded_at: Schema.DateFromSelf
})
export type UsageRecord = typeof UsageRecord.Type
