import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { DoNotCallList } from "../../src/do-not-call/DoNotCallList.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, organizationWithAgent, setNow } from "./Engine.js"

const warsawNoon = "2026-02-10T11:00:00.000Z"
const firstPage = { page: 1, limit: 50 }

/** The rest of a valid Polish mobile number (+48 50x xxx xxx). */
const mobileDigits = FastCheck.array(FastCheck.integer({ min: 0, max: 9 }), {
  minLength: 7,
  maxLength: 7
}).map((rest) => `50${rest.join("")}`)

/** The formats people write a Polish number in. */
const format = FastCheck.constantFrom(
  (d: string) => `+48${d}`,
  (d: string) => `+48 ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`,
  (d: string) => `+48-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  (d: string) => `(+48) ${d.slice(0, 3)} ${d.slice(3)}`,
  (d: string) => ` +48 (${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)} `
)

describe("DoNotCallList", () => {
  it.effect("keeps numbers in E.164, recognises any format, and refuses calls to them", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const stranger = yield* Fixtures.organization()
      const list = yield* DoNotCallList
      const entry = yield* list.add(organization.id, { phone_number: "+48 500-100-200", reason: "asked" })
      expect(entry).toEqual({
        organization_id: organization.id,
        phone_number: "+48500100200",
        reason: "asked",
        created_at: new Date(warsawNoon)
      })
      expect(yield* list.check(organization.id, "+48 (500) 100 200")).toBe(true)
      expect(yield* list.check(organization.id, "+48500100201")).toBe(false)
      expect(yield* list.check(stranger.id, "+48500100200")).toBe(false)

      const refused = yield* Effect.flip(
        (yield* CallPlacement).place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48500100200"
        })
      )
      expect(refused._tag).toBe("DoNotCallListed")

      // adding again keeps the first created_at and sets the reason
      yield* setNow("2026-02-10T12:00:00.000Z")
      const again = yield* list.add(organization.id, { phone_number: "+48500100200" })
      expect(again).toEqual({ ...entry, reason: null })
      yield* list.add(organization.id, { phone_number: "+48 22 123 45 67", reason: null })
      const page = yield* list.list(organization.id, firstPage)
      expect(page.items.map((e) => e.phone_number)).toEqual(["+48221234567", "+48500100200"])
      expect((yield* list.list(stranger.id, firstPage)).total_count).toBe(0)

      yield* list.remove(organization.id, "+48 500 100 200")
      expect(yield* list.check(organization.id, "+48500100200")).toBe(false)
      const missing = yield* Effect.flip(list.remove(organization.id, "+48500100200"))
      expect(missing).toMatchObject({ _tag: "DoNotCallEntryNotFound", phone_number: "+48500100200" })
      expect(missing.message).toBe("+48500100200 is not on the organization's Do not call list")
      expect((yield* Effect.flip(list.remove(stranger.id, "+48221234567")))._tag).toBe(
        "DoNotCallEntryNotFound"
      )
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses invalid numbers everywhere", () =>
    Effect.gen(function* () {
      const organization = yield* Fixtures.organization()
      const list = yield* DoNotCallList
      for (const invalid of ["12345", "500100200", "+48 123", "not a number", ""]) {
        expect((yield* Effect.flip(list.add(organization.id, { phone_number: invalid })))._tag).toBe(
          "InvalidPhoneNumber"
        )
        expect((yield* Effect.flip(list.remove(organization.id, invalid)))._tag).toBe("InvalidPhoneNumber")
        expect((yield* Effect.flip(list.check(organization.id, invalid)))._tag).toBe("InvalidPhoneNumber")
      }
      expect((yield* list.list(organization.id, firstPage)).total_count).toBe(0)
    }).pipe(Effect.provide(engine))
  )

  it.effect.prop(
    "a number added in one format is listed, checked and removed in any other",
    [mobileDigits, mobileDigits, format, format],
    ([digits, otherDigits, addedAs, checkedAs]) =>
      Effect.gen(function* () {
        const organization = yield* Fixtures.organization()
        const list = yield* DoNotCallList
        const entry = yield* list.add(organization.id, { phone_number: addedAs(digits) })
        expect(entry.phone_number).toBe(`+48${digits}`)
        expect(yield* list.check(organization.id, checkedAs(digits))).toBe(true)
        expect(yield* list.check(organization.id, checkedAs(otherDigits))).toBe(otherDigits === digits)
        yield* list.remove(organization.id, checkedAs(digits))
        expect(yield* list.check(organization.id, addedAs(digits))).toBe(false)
      }).pipe(Effect.provide(engine)),
    { fastCheck: { numRuns: 50 } }
  )
})
