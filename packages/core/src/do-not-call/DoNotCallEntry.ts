import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

/** A number the organization must never call: placing a call to it answers 403. */
export const DoNotCallEntry = Schema.Struct({
  organization_id: OrganizationId,
  phone_number: Schema.String.annotations({ description: "E.164" }),
  reason: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf
})
export type DoNotCallEntry = typeof DoNotCallEntry.Type
