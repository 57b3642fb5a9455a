import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { OrganizationId } from "../organizations/Organization.js"

/** A trigger's id: `trg_` and 20 characters of `[A-Za-z0-9]`, random. */
export const TriggerId = Schema.String.pipe(
  Schema.pattern(/^trg_[A-Za-z0-9]{20}$/),
  Schema.brand("TriggerId")
)
export type TriggerId = typeof TriggerId.Type

/** An archived trigger stays readable but places no calls. */
export const TriggerStatus = Schema.Literal("active", "archived")
export type TriggerStatus = typeof TriggerStatus.Type

/**
 * A named entry point that places calls with a fixed agent and a base `initial_context`; each call may
 * add to or override that context.
 */
export const Trigger = Schema.Struct({
  trigger_id: TriggerId,
  organization_id: OrganizationId,
  agent_id: AgentId,
  name: Schema.String,
  initial_context: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  status: TriggerStatus,
  created_at: Schema.DateFromSelf
})
export type Trigger = typeof Trigger.Type

const isTriggerId = Schema.is(TriggerId)

/** The trigger id made from 20 base62 characters. */
export const triggerIdFrom = (body: string): TriggerId => TriggerId.make(`trg_${body}`)

/** Reads a `{trigger_id}` path segment; anything else names no trigger (404, like an unknown one). */
export const parseTriggerId = (segment: string): TriggerId | undefined =>
  isTriggerId(segment) ? segment : undefined
