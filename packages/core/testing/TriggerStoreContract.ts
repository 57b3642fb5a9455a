import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { triggerIdFrom } from "../src/triggers/Trigger.js"
import { TriggerStore } from "../src/triggers/TriggerStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for triggers; `storeContract` runs it against every adapter. */
export const triggerStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("triggers", () => {
    it.effect("stores, lists newest first, archives, and scopes triggers to their organization", () =>
      Effect.gen(function* () {
        const triggers = yield* TriggerStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const suffix = yield* Fixtures.unique()
        const make = (n: number, offsetSeconds: number) =>
          triggers.insert({
            trigger_id: triggerIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
            organization_id: org.id,
            agent_id: agent.id,
            name: `Trigger ${n}`,
            initial_context: { campaign: "spring", n },
            status: "active",
            created_at: at(offsetSeconds)
          })
        const first = yield* make(1, 0)
        const second = yield* make(2, 10)
        const third = yield* make(3, 10)
        expect(Option.getOrThrow(yield* triggers.find(org.id, first.trigger_id))).toEqual(first)
        expect(Option.isNone(yield* triggers.find(other.id, first.trigger_id))).toBe(true)
        const listed = yield* triggers.list(org.id, {}, page(1, 2))
        expect(listed.total_count).toBe(3)
        expect(listed.items.map((t) => t.name)).toEqual(["Trigger 3", "Trigger 2"])
        expect((yield* triggers.list(org.id, {}, page(2, 2))).items).toEqual([first])
        expect((yield* triggers.list(other.id, {}, page(1))).total_count).toBe(0)

        expect(Option.isNone(yield* triggers.archive(other.id, second.trigger_id))).toBe(true)
        const archived = Option.getOrThrow(yield* triggers.archive(org.id, second.trigger_id))
        expect(archived).toEqual({ ...second, status: "archived" })
        expect(Option.getOrThrow(yield* triggers.archive(org.id, second.trigger_id)).status).toBe("archived")
        expect(
          (yield* triggers.list(org.id, { status: "archived" }, page(1))).items.map((t) => t.trigger_id)
        ).toEqual([second.trigger_id])
        expect(
          (yield* triggers.list(org.id, { status: "active" }, page(1))).items.map((t) => t.trigger_id)
        ).toEqual([third.trigger_id, first.trigger_id])
      })
    )
  })
}
