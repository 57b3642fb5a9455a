import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, FiberRef, Option } from "effect"
import { AgentStore } from "../src/agents/AgentStore.js"
import type { MinorUnits as MinorUnitsType } from "../src/money/Money.js"
import { MinorUnits } from "../src/money/Money.js"
import { OrganizationStore } from "../src/organizations/OrganizationStore.js"
import { inTransaction, Transactions } from "../src/storage/Transactions.js"
import * as Fixtures from "./Fixtures.js"
import { page } from "./ContractFixtures.js"

/** The storage contract for transactions; `storeContract` runs it against every adapter. */
export const transactionContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("transactions", () => {
    it.effect("mark the fiber as inside a transaction while, and only while, it runs in one", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        expect(yield* FiberRef.get(inTransaction)).toBe(false)
        expect(yield* transactions.run(FiberRef.get(inTransaction))).toBe(true)
        expect(yield* transactions.run(transactions.run(FiberRef.get(inTransaction)))).toBe(true)
        expect(yield* FiberRef.get(inTransaction)).toBe(false)
      })
    )

    it.effect("undo a failed inner transaction only, like a savepoint, when the outer one catches it", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const organizations = yield* OrganizationStore
        const org = yield* Fixtures.organization({ balance: 500 })
        yield* transactions.run(
          Effect.gen(function* () {
            yield* organizations.debit(org.id, MinorUnits.make(100))
            const inner = transactions.run(
              Effect.zipRight(
                organizations.debit(org.id, MinorUnits.make(300)),
                Effect.fail("inner" as const)
              )
            )
            expect(yield* Effect.flip(inner)).toBe("inner")
          })
        )
        expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(400)
      })
    )

    it.effect("refuse balance changes that are not positive whole amounts", () =>
      Effect.gen(function* () {
        const organizations = yield* OrganizationStore
        const org = yield* Fixtures.organization({ balance: 500 })
        for (const amount of [0, -100, 1.5]) {
          const debit = yield* Effect.exit(organizations.debit(org.id, amount as MinorUnitsType))
          const credit = yield* Effect.exit(organizations.credit(org.id, amount as MinorUnitsType))
          expect(debit._tag).toBe("Failure")
          expect(credit._tag).toBe("Failure")
        }
        expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(500)
      })
    )

    it.effect("undo every write of a failed transaction and keep those of a successful one", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const organizations = yield* OrganizationStore
        const agents = yield* AgentStore
        const org = yield* Fixtures.organization({ balance: 300 })
        const attempt = transactions.run(
          Effect.gen(function* () {
            yield* organizations.debit(org.id, MinorUnits.make(200))
            const { agent } = yield* Fixtures.agent(org.id, "doomed")
            yield* Effect.fail("boom" as const)
            return agent
          })
        )
        expect(yield* Effect.flip(attempt)).toBe("boom")
        expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(300)
        expect((yield* agents.list(org.id, {}, page(1))).total_count).toBe(0)
        yield* transactions.run(organizations.debit(org.id, MinorUnits.make(200)))
        expect(Option.getOrThrow(yield* organizations.find(org.id)).balance).toBe(100)
      })
    )
  })
}
