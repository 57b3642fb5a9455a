import { Clock, Context, Effect, Layer, Option } from "effect"
import { ChannelStore } from "../calls/ChannelStore.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { MinorUnits } from "../money/Money.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import * as ApiKey from "./ApiKey.js"
import type { ApiKeyId } from "./ApiKey.js"
import { ApiKeyStore } from "./ApiKeyStore.js"
import type { Organization, OrganizationId } from "./Organization.js"
import { defaultOutboundChannels } from "./Organization.js"
import { OrganizationNotFound } from "./OrganizationErrors.js"
import type { OrganizationPatch } from "./OrganizationStore.js"
import { OrganizationStore } from "./OrganizationStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A key as it is shown once, at creation: the only time the key itself exists outside the caller. */
export interface IssuedKey {
  readonly api_key_id: ApiKeyId
  readonly api_key: string
}

/** What the organization's overview shows: the organization and how many of its channels calls hold now. */
export interface OrganizationOverview {
  readonly organization: Organization
  readonly channels_busy: number
}

/** Organizations and their API keys: what the operator (the spec's "dashboard") manages. */
export class Organizations extends Context.Tag("@voice-agent-platform/core/Organizations")<
  Organizations,
  {
    /** A new organization with its first API key. */
    readonly create: (input: {
      readonly name: string
      readonly outbound_channels?: number
    }) => Effect.Effect<{ readonly organization: Organization; readonly key: IssuedKey }>
    readonly update: (
      id: OrganizationId,
      patch: OrganizationPatch
    ) => Effect.Effect<Organization, OrganizationNotFound>
    /** Another key for the organization. */
    readonly issueKey: (id: OrganizationId) => Effect.Effect<IssuedKey, OrganizationNotFound>
    /** Revokes a key at once; false when there is no such key. */
    readonly revokeKey: (id: ApiKeyId) => Effect.Effect<boolean>
    readonly topUp: (
      id: OrganizationId,
      amount: MinorUnits
    ) => Effect.Effect<Organization, OrganizationNotFound>
    /** The organization as it is now (its balance included) and its outbound channels held by calls now. */
    readonly overview: (id: OrganizationId) => Effect.Effect<OrganizationOverview, OrganizationNotFound>
    /** True when no organization exists yet: the bundled server then creates one. */
    readonly isEmpty: Effect.Effect<boolean>
    /**
     * Makes sure an organization answers to exactly this key (for scripts and CI): an existing active key
     * is kept, otherwise a new organization is created with it.
     */
    readonly ensureWithKey: (
      key: string,
      name: string
    ) => Effect.Effect<{ readonly organization: Organization; readonly created: boolean }>
  }
>() {}

export const layer = Layer.effect(
  Organizations,
  Effect.gen(function* () {
    const organizations = yield* OrganizationStore
    const keys = yield* ApiKeyStore
    const random = yield* SecureRandom
    const channels = yield* ChannelStore
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const storeKey = (organizationId: OrganizationId, key: string) =>
      Effect.gen(function* () {
        const prefix = ApiKey.displayPrefix(key)
        const stored = yield* keys.insert(
          {
            organization_id: organizationId,
            key_hash: yield* ApiKey.hash(key),
            key_prefix: prefix,
            name: ApiKey.defaultName(prefix)
          },
          yield* now
        )
        return { api_key_id: stored.id, api_key: key }
      })

    const newKey = (organizationId: OrganizationId) =>
      Effect.flatMap(Effect.provideService(ApiKey.generate, SecureRandom, random), (key) =>
        storeKey(organizationId, key)
      )

    const found = <A>(id: OrganizationId, option: Option.Option<A>) =>
      Option.match(option, {
        onNone: () => Effect.fail(new OrganizationNotFound({ organization_id: id })),
        onSome: Effect.succeed
      })

    const insert = (name: string, outboundChannels: number) =>
      Effect.flatMap(now, (at) =>
        organizations.insert(
          {
            name,
            outbound_channels: outboundChannels,
            recording_retention_days: null,
            balance: MinorUnits.make(0)
          },
          at
        )
      )

    return {
      create: OperationSpans.fn("Organizations.create")(function* (input) {
        const organization = yield* insert(input.name, input.outbound_channels ?? defaultOutboundChannels)
        return { organization, key: yield* newKey(organization.id) }
      }),
      update: OperationSpans.fn("Organizations.update")(
        (id, patch) => Effect.flatMap(organizations.update(id, patch), (o) => found(id, o)),
        SpanAttributes.organization
      ),
      issueKey: OperationSpans.fn("Organizations.issueKey")(
        (id) => Effect.flatMap(organizations.find(id), (o) => Effect.flatMap(found(id, o), () => newKey(id))),
        SpanAttributes.organization
      ),
      revokeKey: OperationSpans.fn("Organizations.revokeKey")(
        (id) => Effect.flatMap(now, (at) => Effect.map(keys.revoke(id, at), Option.isSome)),
        SpanAttributes.organization
      ),
      topUp: OperationSpans.fn("Organizations.topUp")(
        (id, amount) => Effect.flatMap(organizations.credit(id, amount), (o) => found(id, o)),
        SpanAttributes.organization
      ),
      overview: OperationSpans.fn("Organizations.overview")(function* (id) {
        const organization = yield* Effect.flatMap(organizations.find(id), (o) => found(id, o))
        const held = yield* channels.held(id, yield* now)
        return { organization, channels_busy: held.length }
      }, SpanAttributes.organization),
      isEmpty: Effect.withSpan(
        Effect.map(organizations.count, (n) => n === 0),
        "Organizations.isEmpty"
      ),
      ensureWithKey: OperationSpans.fn("Organizations.ensureWithKey")(function* (key, name) {
        const existing = yield* keys.findActiveByHash(yield* ApiKey.hash(key))
        if (Option.isSome(existing)) return { organization: existing.value.organization, created: false }
        const organization = yield* insert(name, defaultOutboundChannels)
        yield* storeKey(organization.id, key)
        return { organization, created: true }
      })
    }
  })
)
