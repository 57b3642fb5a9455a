import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { AgentStore } from "@voice-agent-platform/core/agents/AgentStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect, Layer, Option, Schedule } from "effect"
import * as CachedLookups from "../../src/lookups/CachedLookups.js"
import { Lookups } from "../../src/lookups/LookupCache.js"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgOrganizationStore from "../../src/organizations/PgOrganizationStore.js"
import { layerEmbedded } from "../../testing/TestDatabase.js"

/**
 * Agent definitions through the lookup cache: a definition is never changed once written, so one read
 * outside a transaction is kept and answered again without the database; inside a transaction the
 * database answers.
 */
const layer = Layer.mergeAll(CachedLookups.layerAgents, PgOrganizationStore.layerOrganizations).pipe(
  Layer.provideMerge(Migrations.layer),
  Layer.provideMerge(layerEmbedded)
)

describe("cached agent definitions", () => {
  it.live("are read once outside a transaction, and from the database inside one", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const lookups = yield* Lookups
      // the feed listens once its fence passes
      yield* Effect.filterOrFail(
        lookups.fence,
        (passed) => passed,
        () => "not live yet"
      ).pipe(Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds"))))
      const agents = yield* AgentStore
      const organization = yield* Fixtures.organization()
      const { agent, definition } = yield* Fixtures.agent(organization.id)
      const read = agents.findDefinition(organization.id, definition.id)
      // a newer version (a change to the agent drops the organization's entries), then the first one read
      yield* agents.appendDefinition(organization.id, agent.id, (current) => current, Fixtures.epoch)
      expect(yield* read).toEqual(Option.some(definition))
      // taken away beneath the store (nothing the engine does): inside a transaction the database answers
      // that it is gone, outside one the kept definition answers
      yield* sql`DELETE FROM agent_definitions WHERE id = ${definition.id}`
      expect(yield* sql.withTransaction(read)).toEqual(Option.none())
      expect(yield* read).toEqual(Option.some(definition))
      // another organization's id names nothing, kept or not
      const other = yield* Fixtures.organization()
      expect(yield* agents.findDefinition(other.id, definition.id)).toEqual(Option.none())
      // a large definition is not kept (the cache's memory is bounded by count, not size): read each time
      const large = yield* agents.appendDefinition(
        organization.id,
        agent.id,
        (current) => ({ ...current, system_prompt: "x".repeat(CachedLookups.maxCachedDefinitionChars) }),
        Fixtures.epoch
      )
      const largeId = Option.getOrThrow(large).definition.id
      // (a later version becomes current, so that the large one may be taken away beneath the store)
      yield* agents.appendDefinition(
        organization.id,
        agent.id,
        (current) => ({ ...current, system_prompt: "short" }),
        Fixtures.epoch
      )
      expect(Option.isSome(yield* agents.findDefinition(organization.id, largeId))).toBe(true)
      yield* sql`DELETE FROM agent_definitions WHERE id = ${largeId}`
      expect(yield* agents.findDefinition(organization.id, largeId)).toEqual(Option.none())
    }).pipe(Effect.provide(layer))
  )
})
