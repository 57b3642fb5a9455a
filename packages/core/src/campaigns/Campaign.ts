import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"

export const CampaignId = Schema.Int.pipe(Schema.positive(), Schema.brand("CampaignId"))
export type CampaignId = typeof CampaignId.Type

/** `created → running ⇄ paused → completed`, or `canceled` from any state before completion. */
export const CampaignStatus = Schema.Literal("created", "running", "paused", "completed", "canceled")
export type CampaignStatus = typeof CampaignStatus.Type

/** An outbound campaign: one agent calling a list of contacts. */
export const Campaign = Schema.Struct({
  id: CampaignId,
  organization_id: OrganizationId,
  agent_id: AgentId,
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  status: CampaignStatus,
  /** How often a busy or unanswered contact is tried in all. */
  max_attempts: Schema.Int.pipe(Schema.between(1, 10)),
  retry_delay_seconds: Schema.Int.pipe(Schema.between(0, 7 * 24 * 3600)),
  created_at: Schema.DateFromSelf,
  started_at: Schema.NullOr(Schema.DateFromSelf),
  ended_at: Schema.NullOr(Schema.DateFromSelf)
})
export type Campaign = typeof Campaign.Type

export const ContactId = Schema.Int.pipe(Schema.positive(), Schema.brand("ContactId"))
export type ContactId = typeof ContactId.Type

export const ContactStatus = Schema.Literal("pending", "in_progress", "completed", "failed", "skipped")
export type ContactStatus = typeof ContactStatus.Type

/** One person a campaign calls. */
export const Contact = Schema.Struct({
  id: ContactId,
  campaign_id: CampaignId,
  organization_id: OrganizationId,
  /** E.164. */
  phone_number: Schema.String,
  initial_context: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  status: ContactStatus,
  attempts: Schema.NonNegativeInt,
  last_run_id: Schema.NullOr(RunId),
  /** Why the contact was skipped or failed (e.g. `do_not_call`). */
  outcome: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf
})
export type Contact = typeof Contact.Type
