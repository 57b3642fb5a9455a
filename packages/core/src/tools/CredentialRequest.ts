import { Schema } from "effect"
import { CredentialKind } from "./Credential.js"

/** An HTTP header name (RFC 9110 token), as `api_key_header` credentials carry their secret in one. */
export const HeaderName = Schema.String.pipe(
  Schema.maxLength(100),
  Schema.pattern(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { message: () => "expected an HTTP header name" })
)

/**
 * Body of `POST /credentials`. `header_name` is required for `api_key_header` and refused for the other
 * kinds (they use `Authorization`); a `basic` secret is `username:password`.
 */
export const CreateCredentialRequest = Schema.Struct({
  name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)),
  kind: CredentialKind,
  secret: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000)),
  header_name: Schema.optionalWith(Schema.NullOr(HeaderName), { exact: true })
}).pipe(
  Schema.filter((request) => {
    const header = request.header_name ?? null
    if (request.kind === "api_key_header" && header === null)
      return { path: ["header_name"], message: "header_name is required for kind api_key_header" }
    if (request.kind !== "api_key_header" && header !== null)
      return {
        path: ["header_name"],
        message: `header_name is only used with kind api_key_header; ${request.kind} uses the Authorization header`
      }
    if (request.kind === "basic" && !request.secret.includes(":"))
      return { path: ["secret"], message: "a basic credential's secret is username:password" }
    return true
  })
)
export type CreateCredentialRequest = typeof CreateCredentialRequest.Type
