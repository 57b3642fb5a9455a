import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AgentStore } from "../src/agents/AgentStore.js"
import { ImprovementStore } from "../src/improvements/ImprovementStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for agents and their improvements; `storeContract` runs it against every adapter. */
export const agentStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("agents", () => {
    it.effect("finds an agent by public id and by number, only within its organization", () =>
      Effect.gen(function* () {
        const store = yield* AgentStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent, definition } = yield* Fixtures.agent(org.id)
        expect(definition.version).toBe(1)
        expect(agent.current_definition_id).toBe(definition.id)
        const byPublicId = yield* store.find(org.id, { _tag: "PublicId", publicId: agent.public_id })
        const byNumber = yield* store.find(org.id, { _tag: "Number", id: agent.id })
        expect(Option.getOrThrow(byPublicId)).toEqual(agent)
        expect(Option.getOrThrow(byNumber)).toEqual(agent)
        expect(Option.isNone(yield* store.find(other.id, { _tag: "Number", id: agent.id }))).toBe(true)
        expect(
          Option.isNone(yield* store.find(other.id, { _tag: "PublicId", publicId: agent.public_id }))
        ).toBe(true)
        expect(Option.isNone(yield* store.findDefinition(other.id, definition.id))).toBe(true)
      })
    )

    it.effect("lists newest first, stable across pages, filtered by status", () =>
      Effect.gen(function* () {
        const store = yield* AgentStore
        const org = yield* Fixtures.organization()
        const created = []
        for (let i = 0; i < 5; i++) created.push((yield* Fixtures.agent(org.id, `a${i}`, at(i % 3))).agent)
        yield* store.update(org.id, created[0]!.id, { status: "archived" }, at(10))
        const first = yield* store.list(org.id, {}, page(1, 2))
        const second = yield* store.list(org.id, {}, page(2, 2))
        const third = yield* store.list(org.id, {}, page(3, 2))
        expect(first.total_count).toBe(5)
        expect(first.total_pages).toBe(3)
        // created at 0, 1, 2, 0, 1 seconds: newest first, ties by the higher (random) id
        const higherIdFirst = (...agents: ReadonlyArray<{ id: number; name: string }>) =>
          [...agents].sort((x, y) => y.id - x.id).map((a) => a.name)
        expect([...first.items, ...second.items, ...third.items].map((a) => a.name)).toEqual([
          "a2",
          ...higherIdFirst(created[1]!, created[4]!),
          ...higherIdFirst(created[0]!, created[3]!)
        ])
        expect((yield* store.list(org.id, { status: "archived" }, page(1))).items.map((a) => a.name)).toEqual(
          ["a0"]
        )
        expect((yield* store.list(org.id, {}, page(9, 2))).items).toEqual([])
      })
    )

    it.effect(
      "merges configuration patches atomically: concurrent patches of different fields both land",
      () =>
        Effect.gen(function* () {
          const store = yield* AgentStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          yield* Effect.all(
            [
              store.update(org.id, agent.id, { workflow_configurations: { voice: "ada" } }, at(1)),
              store.update(
                org.id,
                agent.id,
                { workflow_configurations: { transfer_numbers: ["+48221234567"] } },
                at(1)
              )
            ],
            { concurrency: "unbounded" }
          )
          const updated = Option.getOrThrow(yield* store.find(org.id, { _tag: "Number", id: agent.id }))
          expect(updated.workflow_configurations).toEqual({
            ...agent.workflow_configurations,
            voice: "ada",
            transfer_numbers: ["+48221234567"]
          })
        })
    )

    it.effect("appends definition versions atomically: concurrent appends all land", () =>
      Effect.gen(function* () {
        const store = yield* AgentStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        yield* Effect.all(
          Array.from({ length: 12 }, (_, i) =>
            store.appendDefinition(
              org.id,
              agent.id,
              (d) => ({ ...d, system_prompt: `${d.system_prompt}\n#${i}` }),
              at(i)
            )
          ),
          { concurrency: "unbounded" }
        )
        const versions = yield* store.listDefinitions(org.id, agent.id, page(1, 100))
        expect(versions.items.map((d) => d.version)).toEqual(Array.from({ length: 13 }, (_, i) => 13 - i))
        const current = Option.getOrThrow(yield* store.find(org.id, { _tag: "Number", id: agent.id }))
        const latest = Option.getOrThrow(yield* store.findDefinition(org.id, current.current_definition_id))
        expect(latest.version).toBe(13)
        for (let i = 0; i < 12; i++) expect(latest.workflow_definition.system_prompt).toContain(`\n#${i}`)
      })
    )
  })

  describe("improvements", () => {
    it.effect("decides a suggestion once: of two racing decisions exactly one wins", () =>
      Effect.gen(function* () {
        const store = yield* ImprovementStore
        const org = yield* Fixtures.organization()
        const { agent, definition } = yield* Fixtures.agent(org.id)
        const suggestion = yield* store.insert(
          {
            organization_id: org.id,
            agent_id: agent.id,
            text: "Be brief.",
            rationale: null,
            source_run_id: null
          },
          Fixtures.epoch
        )
        expect(suggestion.status).toBe("pending")
        const results = yield* Effect.all(
          [
            store.decideIfPending(org.id, suggestion.id, { status: "accepted", decided_at: at(1) }),
            store.decideIfPending(org.id, suggestion.id, { status: "dismissed", decided_at: at(1) })
          ],
          { concurrency: "unbounded" }
        )
        expect(results.filter(Option.isSome)).toHaveLength(1)
        const applied = yield* store.setAppliedDefinition(org.id, suggestion.id, definition.id)
        expect(Option.getOrThrow(applied).applied_definition_id).toBe(definition.id)
        const listed = yield* store.list(org.id, agent.id, { status: "pending" }, page(1))
        expect(listed.total_count).toBe(0)
      })
    )
  })
}
