import { SqlClient } from "@effect/sql"
import type { AgentDefinition } from "@voice-agent-platform/core/agents/Agent.js"
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
/**
 * The largest definition kept in the cache, in characters of JSON (a prompt may be 100,000 characters): the
 * cache holds up to `LookupCache.maxEntries` entries, so only small ones are kept (at most ~80 MB in all),
 * and a larger one is read each time.
 */
export const maxCachedDefinitionChars = 8_192

const isSmallDefinition = (definition: AgentDefinition) =>
  JSON.stringify(definition.workflow_definition).length <= maxCachedDefinitionChars

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
 * entries as soon as it returns. Definitions (`findDefinition`, read on every turn of a conversation) are
 * kept too, without a fence: they never change. Without a `Lookups` feed, the store as it is.
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
      // A definition is never changed once written (a change appends a new one) nor deleted, so one read
      // outside a transaction is kept without a fence: no later change can make it stale.
      findDefinition: (organizationId, id) =>
        Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
          const key = `definition:${organizationId}:${id}`
          const kept = Option.isNone(transaction) ? cache.get<AgentDefinition>(key) : undefined
          if (kept !== undefined) return Effect.succeed(Option.some(kept))
          const generation = cache.generation
          return Effect.tap(store.findDefinition(organizationId, id), (found) => {
            if (Option.isSome(found) && Option.isNone(transaction) && isSmallDefinition(found.value))
              cache.fill(key, String(organizationId), found.value, generation)
          })
        }),
      update: (organizationId, id, patch, now) =>
        Effect.tap(store.update(organizationId, id, patch, now), () => changed(organizationId)),
      appendDefinition: (organizationId, agentId, derive, now) =>
        Effect.tap(store.appendDefinition(organizationId, agentId, derive, now), () =>
          changed(organizationId)
        )
    }
  })
).pipe(Layer.provide(PgAgentStore.layer))
