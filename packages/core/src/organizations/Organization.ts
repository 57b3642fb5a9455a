import { Schema } from "effect"
import { MinorUnits } from "../money/Money.js"

/** An organization's number: every record belongs to exactly one. */
export const OrganizationId = Schema.Int.pipe(Schema.positive(), Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

/** Outbound channels an organization has when nobody configured it (contract: default 10). */
export const defaultOutboundChannels = 10

/** An organization: the tenant that owns agents, runs, numbers and money. */
export const Organization = Schema.Struct({
  id: OrganizationId,
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  /** How many calls may be in flight at once; a call beyond that is refused with 429. */
  outbound_channels: Schema.Int.pipe(Schema.between(1, 10_000)),
  /** Days after a call's end when its recording and transcript are deleted; null keeps them. */
  recording_retention_days: Schema.NullOr(Schema.Int.pipe(Schema.positive())),
  /** Prepaid balance in grosze; number fees are debited from it, calls are billed after the fact. */
  balance: MinorUnits,
  created_at: Schema.DateFromSelf
})
export type Organization = typeof Organization.Type
