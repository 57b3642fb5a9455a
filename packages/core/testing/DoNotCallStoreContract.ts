import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DoNotCallStore } from "../src/do-not-call/DoNotCallStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for the Do not call list; `storeContract` runs it against every adapter. */
export const doNotCallStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("Do not call list", () => {
    it.effect("adds, finds, re-adds with a new reason, lists and removes", () =>
      Effect.gen(function* () {
        const list = yield* DoNotCallStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        yield* list.add({
          organization_id: org.id,
          phone_number: "+48500000486",
          reason: null,
          created_at: at(0)
        })
        yield* list.add({
          organization_id: org.id,
          phone_number: "+48500000486",
          reason: "asked",
          created_at: at(5)
        })
        const entry = Option.getOrThrow(yield* list.find(org.id, "+48500000486"))
        expect(entry).toMatchObject({ reason: "asked" })
        expect(entry.created_at).toEqual(at(0))
        expect(Option.isNone(yield* list.find(other.id, "+48500000486"))).toBe(true)
        expect((yield* list.list(org.id, page(1))).total_count).toBe(1)
        const among = ["+48500000485", "+48500000486", "+48500000487"]
        expect(Array.from(yield* list.listedAmong(org.id, among))).toEqual(["+48500000486"])
        expect((yield* list.listedAmong(other.id, among)).size).toBe(0)
        expect((yield* list.listedAmong(org.id, [])).size).toBe(0)
        expect(yield* list.remove(org.id, "+48500000486")).toBe(true)
        expect(yield* list.remove(org.id, "+48500000486")).toBe(false)
      })
    )
  })
}
