import { SqlClient } from "@effect/sql"
import type { AgentRef } from "@voice-agent-platform/core/agents/AgentIds.js"
import { AgentStore } from "@voice-agent-platform/core/agents/AgentStore.js"
import { ApiKeyStore } from "@voice-agent-platform/core/organizations/ApiKeyStore.js"
import { Effect, Layer, Option } from "effect"
import * as PgAgentStore from "../agents/PgAgentStore.js"
import * as PgOrganizationStore from "../organizations/PgOrganizationStore.js"
import { Lookups } from "./LookupCache.js"

/**
 * A lookup through the cache: outside a transaction, once the feed's fence says every earlier change has
 * arrived, a kept value, or the database's answer (kept when it is found and nothing changed meanwhile).
 * Inside a transaction, or when the fence cannot be passed, the database answers: a transaction may have
 * changed the row itself, which no notification has announced yet.
 */
const cached = <A>(
  lookups: Lookups["Type"],
  key: string,
  organizationOf: (value: A) => string,
  read: Effect.Effect<Option.Option<A>>
): Effect.Effect<Option.Option<A>> =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
    if (Option.isSome(transaction)) return read
    const { cache } = lookups
    const generation = cache.generation
    return Effect.flatMap(lookups.fence, (fenced) => {
      if (!fenced) return read
      const kept = cache.get<A>(key)
      if (kept !== undefined) return Effect.succeed(Option.some(kept))
      return Effect.tap(read, (found) => {
        if (Option.isSome(found)) cache.fill(key, organizationOf(found.value), found.value, generation)
      })
    })
  })

const agentKey = (organizationId: number, ref: AgentRef) =>
  `agent:${organizationId}:${ref._tag === "PublicId" ? ref.publicId : ref.id}`

/**
 * API keys with `findActiveByHash` cached (see `LookupCache`); a revocation through this store drops the
 * organization's entries as soon as it returns. Recording a key's use (`recordUse`) drops nothing: the
 * lookup's answer does not depend on it. Without a `Lookups` feed, the store as it is.
 */
export const layerApiKeys: Layer.Layer<ApiKeyStore, never, SqlClient.SqlClient> = Layer.effect(
  ApiKeyStore,
  Effect.gen(function* () {
    const store = yield* ApiKeyStore
    const lookups = yield* Effect.serviceOption(Lookups)
    if (Option.isNone(lookups)) return store
    const { cache } = lookups.value
    return {
      ...store,
      findActiveByHash: (keyHash) =>
        cached(
          lookups.value,
          `key:${keyHash}`,
          (found) => String(found.organization.id),
          store.findActiveByHash(keyHash)
        ),
      revoke: (id, now) =>
        Effect.tap(store.revoke(id, now), (revoked) => {
          if (Option.isSome(revoked)) cache.invalidate(String(revoked.value.organization_id))
        }),
      revokeUnlessLast: (organizationId, id, now) =>
        Effect.tap(store.revokeUnlessLast(organizationId, id, now), (revocation) => {
          if (revocation._tag === "Revoked") cache.invalidate(String(organizationId))
        })
    }
  })
).pipe(Layer.provide(PgOrganizationStore.layerApiKeys))

/**
 * Agents with `find` cached (see `LookupCache`); a change through this store drops the organization's
 * entries as soon as it returns. Without a `Lookups` feed, the store as it is.
 */
export const layerAgents: Layer.Layer<AgentStore, never, SqlClient.SqlClient> = Layer.effect(
  AgentStore,
  Effect.gen(function* () {
    const store = yield* AgentStore
    const lookups = yield* Effect.serviceOption(Lookups)
    if (Option.isNone(lookups)) return store
    const { cache } = lookups.value
    const changed = (organizationId: number) => Effect.sync(() => cache.invalidate(String(organizationId)))
    return {
      ...store,
      find: (organizationId, ref) =>
        cached(
          lookups.value,
          agentKey(organizationId, ref),
          (agent) => String(agent.organization_id),
          store.find(organizationId, ref)
        ),
      update: (organizationId, id, patch, now) =>
        Effect.tap(store.update(organizationId, id, patch, now), () => changed(organizationId)),
      appendDefinition: (organizationId, agentId, derive, now) =>
        Effect.tap(store.appendDefinition(organizationId, agentId, derive, now), () =>
          changed(organizationId)
        )
    }
  })
).pipe(Layer.provide(PgAgentStore.layer))
