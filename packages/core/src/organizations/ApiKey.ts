import { Effect, Schema } from "effect"
import { ApiKeyName } from "./ApiKeyName.js"
import { OrganizationId } from "./Organization.js"

// names are a pure module of their own, which the API contract reads without this module's randomness
export { ApiKeyName, defaultName, maxNameLength } from "./ApiKeyName.js"
import { base62String, type SecureRandom } from "../randomness/SecureRandom.js"

export const ApiKeyId = Schema.Int.pipe(Schema.positive(), Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

/** A stored API key: only its SHA-256 hash is kept, never the key itself. */
export const ApiKey = Schema.Struct({
  id: ApiKeyId,
  organization_id: OrganizationId,
  /** Lower-case hex SHA-256 of the whole key. */
  key_hash: Schema.String,
  /** The first characters of the key, so that people can tell keys apart in listings. */
  key_prefix: Schema.String,
  name: ApiKeyName,
  created_at: Schema.DateFromSelf,
  /** When the key last authenticated a request, to within a minute (`ApiKeyUse`); null when never. */
  last_used_at: Schema.NullOr(Schema.DateFromSelf),
  revoked_at: Schema.NullOr(Schema.DateFromSelf)
})
export type ApiKey = typeof ApiKey.Type

/** Every key starts with this, so that leaked keys are easy to find with a secret scanner. */
export const keyPrefix = "vap_"

const keyPattern = /^vap_[0-9A-Za-z]{40}$/

/** True when the string has the shape of a key: `vap_` and 40 base62 characters. */
export const isWellFormed = (key: string): boolean => keyPattern.test(key)

/** A fresh key: `vap_` followed by 40 random base62 characters (about 238 bits). */
export const generate: Effect.Effect<string, never, SecureRandom> = Effect.map(
  base62String(40),
  (body) => keyPrefix + body
)

/** What listings show of a key: the prefix and the first four random characters. */
export const displayPrefix = (key: string): string => key.slice(0, keyPrefix.length + 4)

/** Lower-case hex SHA-256 of a key, with the Web Crypto API. */
export const hash = (key: string): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))).pipe(
    Effect.map((digest) =>
      Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
    )
  )
