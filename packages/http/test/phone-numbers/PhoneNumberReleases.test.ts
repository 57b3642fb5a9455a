/** Phone numbers over HTTP: releasing a number, at the documented price. */
import { describe, expect, it } from "@effect/vitest"
import { Money, Organizations, PhoneNumber, PhoneNumberStore, ReleaseQuote } from "@voice-agent-platform/core"
import { Effect, Option } from "effect"
import { TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, setup, addNumber, get, post, balanceOf } from "../support/PhoneNumberFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("phone numbers over HTTP, %s storage", (_, server) => {
  it.live("quotes a release by the documented rule, charges it, and refuses a second release", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(1999)
      const added = yield* addNumber("+48600100220", "mobile")
      expect(
        (yield* post(client, "/api/v1/phone-numbers/polish/order", { number_type: "mobile" })).status
      ).toBe(200)
      const stored = Option.getOrThrow(yield* (yield* PhoneNumberStore.PhoneNumberStore).find(added.id))
      const expected = (now: number) => {
        const quote = ReleaseQuote.compute({
          phoneNumberId: added.id,
          activatedAt: stored.activated_at!,
          minimumPeriodMonths: 12,
          monthlyFee: 1999,
          now: new Date(now)
        })
        return {
          phone_number_id: added.id,
          fee_pln: Money.toDecimal(quote.fee),
          periods: quote.periods,
          commitment_until: quote.commitment_until.toISOString()
        }
      }
      const before = Date.now()
      const quoted = yield* get(client, `/api/v1/phone-numbers/${added.id}/release-quote`)
      const after = Date.now()
      expect(quoted.status).toBe(200)
      // the quote is the rule's answer at an instant during the request (the same one, unless a period
      // started in between)
      expect([expected(before), expected(after)]).toContainEqual(quoted.body)
      // just ordered: the first month is paid, the 11 others of the 12-month minimum are not
      expect(quoted.body).toMatchObject({ periods: 11, fee_pln: 219.89 })

      const short = yield* post(client, `/api/v1/phone-numbers/${added.id}/release`)
      expect(short.status).toBe(402)
      expect(short.body).toEqual({
        detail:
          "insufficient_balance: 219.89 PLN is needed and the balance is 0.00 PLN; top up at least 219.89 PLN",
        balance_pln: 0,
        required_pln: 219.89,
        top_up_pln: 219.89
      })
      expect(((yield* get(client, `/api/v1/phone-numbers/${added.id}`)).body as Body).status).toBe("active")

      yield* (yield* Organizations.Organizations).topUp(
        stored.organization_id!,
        Money.MinorUnits.make(25_000)
      )
      const released = yield* post(client, `/api/v1/phone-numbers/${added.id}/release`)
      expect(released.status).toBe(200)
      const body = released.body as Body
      expect(body.charged_pln).toBe(219.89)
      expect(body.phone_number).toMatchObject({
        id: added.id,
        status: "released",
        released_at: expect.any(String)
      })
      expect(yield* balanceOf(client)).toBe(30.11)

      const again = yield* post(client, `/api/v1/phone-numbers/${added.id}/release`)
      expect(again.status).toBe(409)
      expect(again.body).toEqual({
        detail: `number_not_active: phone number ${added.id} was already released`
      })
      const requote = yield* get(client, `/api/v1/phone-numbers/${added.id}/release-quote`)
      expect(requote.status).toBe(409)
      // a released number stays in the organization's history
      expect(((yield* get(client, `/api/v1/phone-numbers/${added.id}`)).body as Body).status).toBe("released")
    }).pipe(Effect.provide(server))
  )

  it.live("charges only the months left: a number activated months ago, and one past its commitment", () =>
    Effect.gen(function* () {
      const { org, client } = yield* setup(10_000)
      const store = yield* PhoneNumberStore.PhoneNumberStore
      const now = Date.now()
      const monthsAgo = (months: number) => new Date(now - months * 30.5 * 86_400_000)
      const activate = (number: string, activatedAt: Date) =>
        Effect.gen(function* () {
          const added = yield* addNumber(number, "mobile")
          yield* store.claim(org.id, { number_type: "mobile", id: added.id }, activatedAt)
          return { id: added.id, activatedAt }
        })
      const rule = (id: PhoneNumber.PhoneNumberId, activatedAt: Date, at: number) =>
        ReleaseQuote.compute({
          phoneNumberId: id,
          activatedAt,
          minimumPeriodMonths: 12,
          monthlyFee: 1999,
          now: new Date(at)
        })

      const recent = yield* activate("+48600100230", monthsAgo(5))
      const quoted = (yield* get(client, `/api/v1/phone-numbers/${recent.id}/release-quote`)).body as Body
      const expected = rule(recent.id, recent.activatedAt, Date.now())
      expect(quoted).toEqual({
        phone_number_id: recent.id,
        fee_pln: Money.toDecimal(expected.fee),
        periods: expected.periods,
        commitment_until: expected.commitment_until.toISOString()
      })
      // about five months in: six or seven billing periods are still to come
      expect([6, 7]).toContain(quoted.periods)

      const old = yield* activate("+48600100231", monthsAgo(13))
      const free = yield* get(client, `/api/v1/phone-numbers/${old.id}/release-quote`)
      expect(free.body).toEqual({
        phone_number_id: old.id,
        fee_pln: 0,
        periods: 0,
        commitment_until: rule(old.id, old.activatedAt, now).commitment_until.toISOString()
      })
      const released = yield* post(client, `/api/v1/phone-numbers/${old.id}/release`)
      expect(released.status).toBe(200)
      expect((released.body as Body).charged_pln).toBe(0)
      expect(yield* balanceOf(client)).toBe(100)
    }).pipe(Effect.provide(server))
  )
})
