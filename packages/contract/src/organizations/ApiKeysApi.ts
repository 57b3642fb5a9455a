import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as ApiKeyName from "@voice-agent-platform/core/organizations/ApiKeyName.js"
import { Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { IntId } from "../shared/Ids.js"
import { strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

const keyFields = {
  api_key_id: Schema.Int,
  name: Schema.String,
  prefix: Schema.String.annotations({
    description: "The key's first characters (`vap_` and 4 more), to tell keys apart; never the key itself"
  }),
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp).annotations({
    description:
      "When the key last authenticated a request, to within a minute (uses are recorded at most once a minute per key); null when never"
  }),
  revoked_at: Schema.NullOr(Timestamp).annotations({
    description: "When the key was revoked (every request with it answers 401 since); null while active"
  })
}

/** An organization's API key as its list shows it: never the key itself. */
export const ApiKeyResponse = Schema.Struct(keyFields).annotations({ identifier: "ApiKey" })

/** A new key: the list's fields and the key itself, shown only in this answer. */
export const CreatedApiKeyResponse = Schema.Struct({
  ...keyFields,
  api_key: Schema.String.annotations({
    description: "The key (`vap_` and 40 characters): shown once, store it now; only its hash is kept"
  })
}).annotations({ identifier: "CreatedApiKey" })

/** `POST /api-keys`. */
export const CreateApiKeyRequest = strict(
  Schema.Struct({
    name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(ApiKeyName.maxNameLength)).annotations({
      description: `What the key is for, e.g. "CRM integration" (1..${ApiKeyName.maxNameLength} characters, trimmed)`
    })
  }).annotations({ identifier: "CreateApiKeyRequest" })
)

const keyPath = Schema.Struct({ api_key_id: IntId.annotations({ description: "The key's `api_key_id`" }) })

/** The organization's own API keys: what the console's "API keys" screen manages. */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.get("list", "/api-keys")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(ApiKeyResponse, "ApiKeyPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List API keys",
          description:
            "The organization's API keys, revoked ones included, newest first: name, prefix, when each was created, last used and revoked. The keys themselves are never shown again after creation."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/api-keys")
      .setPayload(CreateApiKeyRequest)
      .addSuccess(CreatedApiKeyResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Create an API key",
          description:
            "A new key for the organization, usable at once; `api_key` is shown only in this answer (only its SHA-256 hash is stored). An organization has at most 20 active keys unless the server is configured otherwise (`QUOTA_API_KEYS`); one more answers 409 `{detail}`."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api-keys/:api_key_id")
      .setPath(keyPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Revoke an API key",
          description:
            "Revokes the key at once: its next request, on any server, answers 401. The key stays listed with its `revoked_at`; revoking it again changes nothing (204). 409 `last_active_key: …` for the organization's only active key (create another first: the organization would have no way back in), decided atomically, so two revocations of the last two keys at once leave one. 404 for a key of another organization."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
