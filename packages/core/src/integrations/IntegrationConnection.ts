import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

/** A connection to an outside provider (a CRM, a scheduler); its id is a string. */
export const IntegrationConnection = Schema.Struct({
  id: Schema.String,
  organization_id: OrganizationId,
  provider: Schema.String,
  name: Schema.String,
  config: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  enabled: Schema.Boolean,
  auth_error: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type IntegrationConnection = typeof IntegrationConnection.Type
