import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { PhoneNumberStore } from "../src/phone-numbers/PhoneNumberStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at, randomPolishNumber } from "./ContractFixtures.js"

/** The storage contract for phone numbers; `storeContract` runs it against every adapter. */
export const phoneNumberStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("phone numbers", () => {
    it.effect("gives the last inventory number to exactly one of two racing orders", () =>
      Effect.gen(function* () {
        const numbers = yield* PhoneNumberStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const number = yield* numbers.addToInventory(
          { number: yield* randomPolishNumber, number_type: "landline" },
          at(0)
        )
        const duplicate = yield* Effect.either(
          numbers.addToInventory({ number: number.number, number_type: "landline" }, at(0))
        )
        expect(Either.isLeft(duplicate)).toBe(true)
        const claims = yield* Effect.all(
          [
            numbers.claim(org.id, { number_type: "landline", id: number.id }, at(1)),
            numbers.claim(other.id, { number_type: "landline", id: number.id }, at(1))
          ],
          { concurrency: "unbounded" }
        )
        expect(claims.filter(Option.isSome)).toHaveLength(1)
        const winner = claims[0]!.pipe(
          Option.orElse(() => claims[1]!),
          Option.getOrThrow
        )
        expect(winner.status).toBe("active")
        const owner = winner.organization_id!
        expect((yield* numbers.listOwned(owner, page(1))).items.map((n) => n.id)).toContain(number.id)
        expect(
          Option.isNone(yield* numbers.release(owner === org.id ? other.id : org.id, number.id, at(2)))
        ).toBe(true)
        expect(Option.getOrThrow(yield* numbers.release(owner, number.id, at(2))).status).toBe("released")
        expect(Option.isNone(yield* numbers.release(owner, number.id, at(3)))).toBe(true)
        const request = yield* numbers.insertRequest(
          {
            organization_id: org.id,
            end_user_id: 7,
            consent: true,
            note: "Warsaw please",
            number_type: "mobile"
          },
          at(4)
        )
        expect(request.status).toBe("open")
        expect((yield* numbers.listRequests(org.id, page(1))).items).toEqual([request])
      })
    )

    it.effect("gives the active number an organization has held longest, in one read", () =>
      Effect.gen(function* () {
        const numbers = yield* PhoneNumberStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        expect(Option.isNone(yield* numbers.oldestActive(org.id))).toBe(true)
        const take = (organizationId: typeof org.id, second: number) =>
          Effect.gen(function* () {
            const added = yield* numbers.addToInventory(
              { number: yield* randomPolishNumber, number_type: "mobile" },
              at(0)
            )
            return Option.getOrThrow(
              yield* numbers.claim(organizationId, { number_type: "mobile", id: added.id }, at(second))
            )
          })
        // added first but taken last: held for the shortest time
        const newest = yield* take(org.id, 30)
        const oldest = yield* take(org.id, 10)
        const middle = yield* take(org.id, 20)
        yield* take(other.id, 5)
        expect(Option.getOrThrow(yield* numbers.oldestActive(org.id)).id).toBe(oldest.id)
        yield* numbers.release(org.id, oldest.id, at(40))
        expect(Option.getOrThrow(yield* numbers.oldestActive(org.id)).id).toBe(middle.id)
        yield* numbers.release(org.id, middle.id, at(41))
        yield* numbers.release(org.id, newest.id, at(42))
        expect(Option.isNone(yield* numbers.oldestActive(org.id))).toBe(true)
      })
    )
  })
}
