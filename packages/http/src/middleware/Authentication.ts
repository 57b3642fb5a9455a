import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { ApiKey, ApiKeyStore } from "@voice-agent-platform/core"
import type { Organization } from "@voice-agent-platform/core"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Unauthorized } from "../errors/ApiErrors.js"

/** The organization that owns the request's API key; every handler acts within it. */
export class CurrentOrganization extends Context.Tag("@voice-agent-platform/http/CurrentOrganization")<
  CurrentOrganization,
  Organization.Organization
>() {}

/** `X-API-Key` on every organization route: resolves the key to its organization, else 401. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: CurrentOrganization,
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" })
  }
}) {}

const invalid = new Unauthorized({ detail: "Invalid API key" })

/** Looks the key up by its SHA-256 hash; malformed, unknown and revoked keys get the same 401. */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore.ApiKeyStore
    return {
      apiKey: (key) =>
        Effect.gen(function* () {
          const value = Redacted.value(key)
          if (!ApiKey.isWellFormed(value)) return yield* Effect.fail(invalid)
          const found = yield* keys.findActiveByHash(yield* ApiKey.hash(value))
          return Option.isSome(found) ? found.value.organization : yield* Effect.fail(invalid)
        })
    }
  })
)
