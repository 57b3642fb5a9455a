import { Context, Data, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { ApiKey, ApiKeyId } from "./ApiKey.js"
import type { Organization, OrganizationId } from "./Organization.js"

/** A key to store: its id and times are the store's. */
export interface NewApiKey {
  readonly organization_id: OrganizationId
  readonly key_hash: string
  readonly key_prefix: string
  readonly name: string
}

/** What `revokeUnlessLast` did. */
export type Revocation = Data.TaggedEnum<{
  /** The key was active and is revoked now. */
  Revoked: { readonly key: ApiKey }
  /** The key had been revoked before; it is left as it was. */
  AlreadyRevoked: { readonly key: ApiKey }
  /** The key is the organization's only active key; it stays active. */
  LastActiveKey: { readonly key: ApiKey }
  /** No key of the organization has this id. */
  NotFound: {}
}>

/** Constructors and matchers of `Revocation`. */
export const Revocation = Data.taggedEnum<Revocation>()

/** Storage of API keys, by hash only. */
export class ApiKeyStore extends Context.Tag("@voice-agent-platform/core/ApiKeyStore")<
  ApiKeyStore,
  {
    readonly insert: (key: NewApiKey, now: Date) => Effect.Effect<ApiKey>
    /**
     * Inserts the key only while the organization has fewer than `limit` active (unrevoked) keys, exact
     * under concurrency as every quota is; None when the quota is reached.
     */
    readonly insertWithin: (key: NewApiKey, now: Date, limit: number) => Effect.Effect<Option.Option<ApiKey>>
    /** The key with this hash and its organization, unless the key was revoked. */
    readonly findActiveByHash: (
      keyHash: string
    ) => Effect.Effect<Option.Option<{ readonly apiKey: ApiKey; readonly organization: Organization }>>
    /** Every key of the organization, revoked ones included, newest first. */
    readonly list: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<ApiKey>>
    /** One page of the organization's keys, revoked ones included, newest first (`created_at`, then id). */
    readonly listPage: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<ApiKey>>
    /** Revokes a key at once; None when there is no such key. Revoking twice keeps the first time. */
    readonly revoke: (id: ApiKeyId, now: Date) => Effect.Effect<Option.Option<ApiKey>>
    /**
     * Revokes the organization's key unless it is the organization's last active key, deciding atomically:
     * of two revocations of an organization's last two active keys at once, in any server processes, one
     * revokes and the other finds its key the last.
     */
    readonly revokeUnlessLast: (
      organizationId: OrganizationId,
      id: ApiKeyId,
      now: Date
    ) => Effect.Effect<Revocation>
    /**
     * Records that the key was used at `at`, unless a use after `since` is already recorded: at most one
     * write per key and period, whichever servers see its uses, and never an earlier instant over a later.
     * A write that changes nothing else about the key (no lookup is invalidated by it).
     */
    readonly recordUse: (id: ApiKeyId, at: Date, since: Date) => Effect.Effect<void>
  }
>() {}
