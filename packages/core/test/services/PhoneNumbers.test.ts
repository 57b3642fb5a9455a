import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { MinorUnits } from "../../src/money/Money.js"
import { OrganizationStore } from "../../src/organizations/OrganizationStore.js"
import { PhoneNumberId } from "../../src/phone-numbers/PhoneNumber.js"
import { PhoneNumbers } from "../../src/phone-numbers/PhoneNumbers.js"
import { PhoneNumberStore } from "../../src/phone-numbers/PhoneNumberStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

// Default prices: landline 49.00 activation + 9.99 a month; mobile 0 + 19.99 a month; 12 months minimum.
const balanceOf = (id: Parameters<(typeof OrganizationStore.Service)["find"]>[0]) =>
  Effect.flatMap(OrganizationStore, (store) =>
    Effect.map(store.find(id), (o) => Option.getOrThrow(o).balance)
  )

describe("PhoneNumbers", () => {
  it.effect("quotes activation + first month against the balance", () =>
    Effect.gen(function* () {
      const numbers = yield* PhoneNumbers
      const org = yield* Fixtures.organization({ balance: 2000 })
      expect(yield* numbers.quote(org.id, { number_type: "landline" })).toEqual({
        number_type: "landline",
        phone_number_id: null,
        activation_fee: 4900,
        monthly_fee: 999,
        price: 5899,
        balance: 2000,
        sufficient: false,
        top_up: 3899
      })
      const added = yield* numbers.addToInventory({ number: "+48 600 100 200", number_type: "mobile" })
      expect(yield* numbers.quote(org.id, { phone_number_id: added.id })).toMatchObject({
        number_type: "mobile",
        phone_number_id: added.id,
        price: 1999,
        sufficient: true,
        top_up: 0
      })
      const missing = yield* Effect.flip(
        numbers.quote(org.id, { phone_number_id: PhoneNumberId.make(12345) })
      )
      expect(missing._tag).toBe("PhoneNumberNotFound")
    }).pipe(Effect.provide(engine))
  )

  it.effect("orders a number: activates it and debits the price, or changes nothing at all", () =>
    Effect.gen(function* () {
      yield* setNow("2026-01-31T10:00:00Z")
      const numbers = yield* PhoneNumbers
      const org = yield* Fixtures.organization({ balance: 5000 })
      const added = yield* numbers.addToInventory({ number: "+48221234567", number_type: "landline" })

      const short = yield* Effect.flip(numbers.order(org.id, { number_type: "landline" }))
      expect(short).toMatchObject({ _tag: "InsufficientBalance", balance: 5000, required: 5899, top_up: 899 })
      expect(Option.getOrThrow(yield* (yield* PhoneNumberStore).find(added.id)).status).toBe("available")
      expect(yield* balanceOf(org.id)).toBe(5000)

      yield* (yield* OrganizationStore).credit(org.id, MinorUnits.make(1000))
      const ordered = yield* numbers.order(org.id, { number_type: "landline" })
      expect(ordered.charged).toBe(5899)
      expect(ordered.value).toMatchObject({ status: "active", organization_id: org.id })
      expect(yield* balanceOf(org.id)).toBe(101)
      expect((yield* numbers.list(org.id, { page: 1, limit: 50 })).items.map((n) => n.id)).toEqual([added.id])

      const none = yield* Effect.flip(numbers.order(org.id, { number_type: "landline" }))
      expect(none.message).toMatch(/^no_inventory: /)
    }).pipe(Effect.provide(engine))
  )

  it.effect("gives the last number to one of two simultaneous orders", () =>
    Effect.gen(function* () {
      const numbers = yield* PhoneNumbers
      const first = yield* Fixtures.organization({ balance: 10_000 })
      const second = yield* Fixtures.organization({ balance: 10_000 })
      yield* numbers.addToInventory({ number: "+48600100201", number_type: "mobile" })
      const results = yield* Effect.all(
        [first, second].map((org) => Effect.either(numbers.order(org.id, { number_type: "mobile" }))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((r) => r.left._tag)).toEqual(["NoInventory"])
      // only the winner paid
      expect((yield* balanceOf(first.id)) + (yield* balanceOf(second.id))).toBe(20_000 - 1999)
    }).pipe(Effect.provide(engine))
  )

  it.effect("quotes and releases: the fee of the unpaid months of the minimum period", () =>
    Effect.gen(function* () {
      yield* setNow("2026-01-31T10:00:00Z")
      const numbers = yield* PhoneNumbers
      const org = yield* Fixtures.organization({ balance: 10_000 })
      const added = yield* numbers.addToInventory({ number: "+48600100202", number_type: "mobile" })
      yield* numbers.order(org.id, { number_type: "mobile", phone_number_id: added.id })
      // Three months in: periods starting 30 Apr .. 31 Dec are unpaid (9 of them).
      yield* setNow("2026-04-15T10:00:00Z")
      const quote = yield* numbers.releaseQuote(org.id, added.id)
      expect(quote).toEqual({
        phone_number_id: added.id,
        fee: 9 * 1999,
        periods: 9,
        commitment_until: new Date("2027-01-31T10:00:00Z")
      })
      const short = yield* Effect.flip(numbers.release(org.id, added.id))
      expect(short._tag).toBe("InsufficientBalance")
      expect(Option.getOrThrow(yield* (yield* PhoneNumberStore).find(added.id)).status).toBe("active")

      yield* (yield* OrganizationStore).credit(org.id, MinorUnits.make(20_000))
      const released = yield* numbers.release(org.id, added.id)
      expect(released.charged).toBe(9 * 1999)
      expect(released.value.status).toBe("released")
      expect(yield* balanceOf(org.id)).toBe(10_000 - 1999 + 20_000 - 9 * 1999)
      expect((yield* Effect.flip(numbers.release(org.id, added.id)))._tag).toBe("PhoneNumberNotActive")
      expect((yield* Effect.flip(numbers.releaseQuote(org.id, added.id)))._tag).toBe("PhoneNumberNotActive")
      const stranger = yield* Fixtures.organization()
      expect((yield* Effect.flip(numbers.releaseQuote(stranger.id, added.id)))._tag).toBe(
        "PhoneNumberNotFound"
      )
    }).pipe(Effect.provide(engine))
  )

  it.effect("registers demand and takes only Polish numbers into the inventory", () =>
    Effect.gen(function* () {
      const numbers = yield* PhoneNumbers
      const org = yield* Fixtures.organization()
      const request = yield* numbers.requestNumber(org.id, {
        end_user_id: 42,
        consent: true,
        note: "Kraków area"
      })
      expect(request).toMatchObject({ end_user_id: 42, consent: true, note: "Kraków area", status: "open" })
      expect((yield* numbers.listRequests(org.id, { page: 1, limit: 50 })).items).toEqual([request])
      expect(
        (yield* Effect.flip(numbers.addToInventory({ number: "+12125550123", number_type: "landline" })))._tag
      ).toBe("InvalidPhoneNumber")
      yield* numbers.addToInventory({ number: "+48600100203", number_type: "mobile" })
      expect(
        (yield* Effect.flip(numbers.addToInventory({ number: "+48 600 100 203", number_type: "mobile" })))
          ._tag
      ).toBe("PhoneNumberExists")
    }).pipe(Effect.provide(engine))
  )
})
