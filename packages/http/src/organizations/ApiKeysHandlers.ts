import { ApiKey, ApiKeys, OperationSpans } from "@voice-agent-platform/core"
import type {
  ApiKeyResponse,
  CreatedApiKeyResponse
} from "@voice-agent-platform/contract/organizations/ApiKeysApi.js"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { render } from "@voice-agent-platform/contract/shared/Pagination.js"
import { Effect } from "effect"
import * as CoreErrors from "../errors/CoreErrors.js"
import { CurrentOrganization } from "../middleware/Authentication.js"
import * as CapturedGroups from "../direct/CapturedGroups.js"

/** A key as the list shows it: never its hash, never the key. */
export const apiKeyResponse = (key: ApiKey.ApiKey): typeof ApiKeyResponse.Type => ({
  api_key_id: key.id,
  name: key.name,
  prefix: key.key_prefix,
  created_at: key.created_at,
  last_used_at: key.last_used_at,
  revoked_at: key.revoked_at
})

/** A new key: the list's fields and the key, this once. */
const createdResponse = (created: ApiKeys.CreatedKey): typeof CreatedApiKeyResponse.Type => ({
  ...apiKeyResponse(created.key),
  api_key: created.api_key
})

/** Handlers of the API keys group: the organization's own keys. */
export const ApiKeysHandlers = CapturedGroups.group(Api, "apiKeys", (handlers) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys.ApiKeys
    return handlers
      .handle(
        "list",
        OperationSpans.fn("ApiKeys.list")(function* ({ urlParams }) {
          const organization = yield* CurrentOrganization
          return render(yield* keys.list(organization.id, urlParams), apiKeyResponse)
        })
      )
      .handle(
        "create",
        OperationSpans.fn("ApiKeys.create")(function* ({ payload }) {
          const organization = yield* CurrentOrganization
          return createdResponse(yield* keys.create(organization.id, payload.name))
        }, Effect.mapError(CoreErrors.toHttp))
      )
      .handle(
        "revoke",
        OperationSpans.fn("ApiKeys.revoke")(function* ({ path }) {
          const organization = yield* CurrentOrganization
          yield* keys.revoke(organization.id, ApiKey.ApiKeyId.make(path.api_key_id))
        }, Effect.mapError(CoreErrors.toHttp))
      )
  })
)
