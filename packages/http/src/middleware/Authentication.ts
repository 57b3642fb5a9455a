import { Authentication } from "@voice-agent-platform/contract/middleware/Authentication.js"
import { ApiKey, ApiKeyStore, ApiKeyUse } from "@voice-agent-platform/core"
import { Unauthorized } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import { Effect, Layer, Option, Redacted } from "effect"
import { noteOrganization } from "../observability/RequestObservation.js"
import { sha256Hex } from "./KeyHash.js"

/** The middleware tag and what it provides are part of the contract; this is the server's side. */
export {
  Authentication,
  CurrentOrganization
} from "@voice-agent-platform/contract/middleware/Authentication.js"

const invalid = new Unauthorized({ detail: "Invalid API key" })

/**
 * Looks the key up by its SHA-256 hash; malformed, unknown and revoked keys get the same 401. A key that
 * passes has its use noted (`ApiKeyUse`: written in the background, at most once a minute per key).
 */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore.ApiKeyStore
    const uses = yield* ApiKeyUse.ApiKeyUse
    return {
      // plain combinators, no generator: this runs on every authenticated request
      apiKey: (key) => {
        const value = Redacted.value(key)
        if (!ApiKey.isWellFormed(value)) return Effect.fail(invalid)
        return Effect.flatMap(keys.findActiveByHash(sha256Hex(value)), (found) =>
          Option.isNone(found)
            ? Effect.fail(invalid)
            : Effect.zipRight(
                uses.note(found.value.apiKey),
                Effect.as(noteOrganization(found.value.organization.id), found.value.organization)
              )
        )
      }
    }
  })
)
