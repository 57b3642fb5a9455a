import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { QuotaExceeded } from "../quotas/QuotaErrors.js"
import { Quotas } from "../quotas/Quotas.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import * as ApiKey from "./ApiKey.js"
import { ApiKeyStore, Revocation } from "./ApiKeyStore.js"
import type { OrganizationId } from "./Organization.js"
import { ApiKeyNotFound, LastActiveApiKey } from "./OrganizationErrors.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A key just made: the stored record, and the key itself, which exists nowhere else after this answer. */
export interface CreatedKey {
  readonly key: ApiKey.ApiKey
  readonly api_key: string
}

/**
 * An organization's own API keys, as it manages them (the console's "API keys" screen): listed, created
 * within the `api_keys` quota of active keys, and revoked (never the last active one, so the organization
 * can always sign in). Every operation is scoped to the organization; another organization's key is
 * not found.
 */
export class ApiKeys extends Context.Tag("@voice-agent-platform/core/ApiKeys")<
  ApiKeys,
  {
    /** The organization's keys, revoked ones included, newest first. */
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<ApiKey.ApiKey>>
    /** A new key named `name` (1..100 characters); the organization may have `Quotas.api_keys` active keys. */
    readonly create: (
      organizationId: OrganizationId,
      name: string
    ) => Effect.Effect<CreatedKey, QuotaExceeded>
    /**
     * Revokes the key at once (every server refuses it from then on) and answers it; a key revoked before
     * is answered as it is. Refused for the organization's last active key.
     */
    readonly revoke: (
      organizationId: OrganizationId,
      id: ApiKey.ApiKeyId
    ) => Effect.Effect<ApiKey.ApiKey, ApiKeyNotFound | LastActiveApiKey>
  }
>() {}

/** The service over the key store, secure randomness and the quotas. */
export const layer = Layer.effect(
  ApiKeys,
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const random = yield* SecureRandom
    const quotas = yield* Quotas
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    return ApiKeys.of({
      list: OperationSpans.fn("ApiKeys.list")(keys.listPage, SpanAttributes.organization),
      create: OperationSpans.fn("ApiKeys.create")(function* (organizationId, name) {
        const key = yield* Effect.provideService(ApiKey.generate, SecureRandom, random)
        const stored = yield* keys.insertWithin(
          {
            organization_id: organizationId,
            key_hash: yield* ApiKey.hash(key),
            key_prefix: ApiKey.displayPrefix(key),
            name
          },
          yield* now,
          quotas.api_keys
        )
        return Option.isSome(stored)
          ? { key: stored.value, api_key: key }
          : yield* new QuotaExceeded({ resource: "api_keys", limit: quotas.api_keys })
      }, SpanAttributes.organization),
      revoke: OperationSpans.fn("ApiKeys.revoke")(
        (organizationId, id) =>
          Effect.flatMap(now, (at) =>
            Effect.flatMap(
              keys.revokeUnlessLast(organizationId, id, at),
              Revocation.$match({
                Revoked: ({ key }) => Effect.succeed(key),
                AlreadyRevoked: ({ key }) => Effect.succeed(key),
                LastActiveKey: () => Effect.fail(new LastActiveApiKey({ api_key_id: id })),
                NotFound: () => Effect.fail(new ApiKeyNotFound({ api_key_id: id }))
              })
            )
          ),
        SpanAttributes.organization
      )
    })
  })
)
