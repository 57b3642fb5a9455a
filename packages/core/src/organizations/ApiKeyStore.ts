import { Context, type Effect, type Option } from "effect"
import type { ApiKey, ApiKeyId } from "./ApiKey.js"
import type { Organization, OrganizationId } from "./Organization.js"

/** Storage of API keys, by hash only. */
export class ApiKeyStore extends Context.Tag("@voice-agent-platform/core/ApiKeyStore")<
  ApiKeyStore,
  {
    readonly insert: (
      key: {
        readonly organization_id: OrganizationId
        readonly key_hash: string
        readonly key_prefix: string
      },
      now: Date
    ) => Effect.Effect<ApiKey>
    /** The key with this hash and its organization, unless the key was revoked. */
    readonly findActiveByHash: (
      keyHash: string
    ) => Effect.Effect<Option.Option<{ readonly apiKey: ApiKey; readonly organization: Organization }>>
    readonly list: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<ApiKey>>
    /** Revokes a key at once; None when there is no such key. Revoking twice keeps the first time. */
    readonly revoke: (id: ApiKeyId, now: Date) => Effect.Effect<Option.Option<ApiKey>>
  }
>() {}
