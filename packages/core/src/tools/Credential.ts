import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

/** How a stored credential authenticates an HTTP API tool's requests. */
export const CredentialKind = Schema.Literal("bearer", "basic", "api_key_header")
export type CredentialKind = typeof CredentialKind.Type

/**
 * A secret an HTTP API tool uses (referenced by `credential_uuid`). It is never returned by the API; a
 * persistent storage adapter must encrypt it at rest.
 */
export const Credential = Schema.Struct({
  credential_uuid: Schema.String,
  organization_id: OrganizationId,
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  kind: CredentialKind,
  /** For `api_key_header`: the header that carries the secret. */
  header_name: Schema.NullOr(Schema.String),
  secret: Schema.Redacted(Schema.String),
  created_at: Schema.DateFromSelf
})
export type Credential = typeof Credential.Type
