import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { MinorUnits } from "../money/Money.js"
import { OrganizationId } from "../organizations/Organization.js"
import { PhoneNumberId } from "../phone-numbers/PhoneNumber.js"
import { RunId } from "../runs/RunId.js"

export const CampaignId = Schema.Int.pipe(Schema.positive(), Schema.brand("CampaignId"))
export type CampaignId = typeof CampaignId.Type

/** `created → running ⇄ paused → completed`, or `canceled` from any state before completion. */
export const CampaignStatus = Schema.Literal("created", "running", "paused", "completed", "canceled")
export type CampaignStatus = typeof CampaignStatus.Type

/** The ends of an attempt that may be tried again (`retry_on`). */
export const RetryableOutcome = Schema.Literal("busy", "no_answer", "failed")
export type RetryableOutcome = typeof RetryableOutcome.Type

export const ContactStatus = Schema.Literal("pending", "in_progress", "completed", "failed", "skipped")
export type ContactStatus = typeof ContactStatus.Type

/** How many of a campaign's contacts are in each status. */
export const ContactCounts = Schema.Struct({
  pending: Schema.NonNegativeInt,
  in_progress: Schema.NonNegativeInt,
  completed: Schema.NonNegativeInt,
  failed: Schema.NonNegativeInt,
  skipped: Schema.NonNegativeInt
})
export type ContactCounts = typeof ContactCounts.Type

/**
 * The report's summary, kept on the campaign: every contact transition changes it in the same
 * transaction (see `CampaignTally`), so reading it never counts rows.
 */
export const CampaignTotals = Schema.Struct({
  counts: ContactCounts,
  /** Attempts made: runs created for the campaign's contacts. */
  attempts: Schema.NonNegativeInt,
  /** Talk time of the attempts that ended, in whole seconds. */
  duration_seconds: Schema.NonNegativeInt,
  /** What the attempts that ended cost, in minor units. */
  cost: MinorUnits
})
export type CampaignTotals = typeof CampaignTotals.Type

/** An outbound campaign: one agent calling a list of contacts. */
export const Campaign = Schema.Struct({
  id: CampaignId,
  organization_id: OrganizationId,
  agent_id: AgentId,
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  status: CampaignStatus,
  /** The organization's number the calls come from; null for the runtime's default caller id. */
  from_phone_number_id: Schema.NullOr(PhoneNumberId),
  /** The most calls of this campaign live at once. */
  max_concurrency: Schema.Int.pipe(Schema.between(1, 1000)),
  /** How often a contact is tried in all. */
  max_attempts: Schema.Int.pipe(Schema.between(1, 10)),
  retry_delay_seconds: Schema.Int.pipe(Schema.between(0, 7 * 24 * 3600)),
  /** The attempt ends that are tried again. */
  retry_on: Schema.Array(RetryableOutcome),
  totals: CampaignTotals,
  created_at: Schema.DateFromSelf,
  started_at: Schema.NullOr(Schema.DateFromSelf),
  ended_at: Schema.NullOr(Schema.DateFromSelf)
})
export type Campaign = typeof Campaign.Type

/** Drawn at random (see `RandomIds`), as the other ids tenants see: its order says nothing. */
export const ContactId = Schema.Int.pipe(Schema.positive(), Schema.brand("ContactId"))
export type ContactId = typeof ContactId.Type

/**
 * Where a contact stands in the order contacts were added: counted by a sequence shared by every
 * organization, so it orders lists and reports but is never shown.
 */
export const ContactOrder = Schema.Int.pipe(Schema.positive(), Schema.brand("ContactOrder"))
export type ContactOrder = typeof ContactOrder.Type

/** One person a campaign calls. */
export const Contact = Schema.Struct({
  id: ContactId,
  /** The order added (not shown). */
  added_order: ContactOrder,
  campaign_id: CampaignId,
  organization_id: OrganizationId,
  /** E.164. */
  phone_number: Schema.String,
  initial_context: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  status: ContactStatus,
  attempts: Schema.NonNegativeInt,
  last_run_id: Schema.NullOr(RunId),
  /** Why the contact was skipped or why its last attempt did not complete (`last_error` in the API). */
  outcome: Schema.NullOr(Schema.String),
  /** When a pending contact may be dialed next; null for at once. */
  next_attempt_at: Schema.NullOr(Schema.DateFromSelf),
  /** The dialer process holding the contact's live attempt, and until when (renewed by heartbeat). */
  lease_owner: Schema.NullOr(Schema.String),
  lease_expires_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf
})
export type Contact = typeof Contact.Type

/** What the report shows of a contact's last run (empty once the run is deleted). */
export interface ContactRun {
  readonly status: string
  readonly disposition: string | null
  readonly duration_seconds: number | null
  readonly gathered_context: Readonly<Record<string, unknown>>
}

/** A contact with its last run, as the report lists it. */
export interface ReportedContact {
  readonly contact: Contact
  readonly run: ContactRun | null
}
