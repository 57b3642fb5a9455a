import type { HttpClient } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import {
  Money,
  Organizations,
  PhoneNumber,
  PhoneNumbers,
  PhoneNumberStore,
  ReleaseQuote
} from "@voice-agent-platform/core"
import type { NumberPricing } from "@voice-agent-platform/core"
import { Effect, Option } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "./support/TestServer.js"

// Default prices: mobile 0 + 19.99 a month, landline 49.00 + 9.99 a month, both 12 months minimum.
type Body = Record<string, any>

/** An organization with a balance in grosze, and its client. */
const setup = (balance = 0) =>
  Effect.gen(function* () {
    const { organization: org, apiKey } = yield* organization()
    if (balance > 0) {
      yield* (yield* Organizations.Organizations).topUp(org.id, Money.MinorUnits.make(balance))
    }
    return { org, client: yield* rawClient(apiKey) }
  })

/** Adds a number to the orderable inventory, as the operator does. */
const addNumber = (number: string, number_type: NumberPricing.NumberType) =>
  Effect.flatMap(PhoneNumbers.PhoneNumbers, (numbers) => numbers.addToInventory({ number, number_type }))

const get = (client: HttpClient.HttpClient, url: string) => send(client, HttpClientRequest.get(url))
const post = (client: HttpClient.HttpClient, url: string, body?: unknown) =>
  send(client, body === undefined ? HttpClientRequest.post(url) : json("POST", url, body))

/** The balance in PLN, as the quote shows it. */
const balanceOf = (client: HttpClient.HttpClient) =>
  Effect.map(
    get(client, "/api/v1/phone-numbers/polish/quote?number_type=mobile"),
    (r) => (r.body as Body).balance_pln as number
  )

const locs = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("phone numbers over HTTP, %s storage", (_, server) => {
  it.live("quotes by number type (phone_number_id null) and by inventory number, against the balance", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(2000)
      const byType = yield* get(client, "/api/v1/phone-numbers/polish/quote?number_type=landline")
      expect(byType.status).toBe(200)
      expect(byType.body).toEqual({
        number_type: "landline",
        phone_number_id: null,
        activation_fee_pln: 49,
        monthly_fee_pln: 9.99,
        price_pln: 58.99,
        balance_pln: 20,
        sufficient: false,
        top_up_pln: 38.99
      })
      const added = yield* addNumber("+48 600 100 200", "mobile")
      const byNumber = yield* get(client, `/api/v1/phone-numbers/polish/quote?phone_number_id=${added.id}`)
      expect(byNumber.status).toBe(200)
      expect(byNumber.body).toEqual({
        number_type: "mobile",
        phone_number_id: added.id,
        activation_fee_pln: 0,
        monthly_fee_pln: 19.99,
        price_pln: 19.99,
        balance_pln: 20,
        sufficient: true,
        top_up_pln: 0
      })
    }).pipe(Effect.provide(server))
  )

  it.live("answers 422 at the query unless exactly one of number_type and phone_number_id is given", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const exactlyOne = {
        detail: [
          { loc: ["query"], msg: "give exactly one of number_type and phone_number_id", type: "value_error" }
        ]
      }
      const neither = yield* get(client, "/api/v1/phone-numbers/polish/quote")
      expect(neither.status).toBe(422)
      expect(neither.body).toEqual(exactlyOne)
      const both = yield* get(
        client,
        "/api/v1/phone-numbers/polish/quote?number_type=mobile&phone_number_id=1"
      )
      expect(both.status).toBe(422)
      expect(both.body).toEqual(exactlyOne)
      const badType = yield* get(client, "/api/v1/phone-numbers/polish/quote?number_type=satellite")
      expect(badType.status).toBe(422)
      expect(badType.body).toEqual({
        detail: [
          {
            loc: ["query", "number_type"],
            msg: "Input should be 'mobile' or 'landline'",
            type: "value_error"
          }
        ]
      })
      const badId = yield* get(client, "/api/v1/phone-numbers/polish/quote?phone_number_id=abc")
      expect(badId.status).toBe(422)
      expect(locs(badId.body)).toEqual(["query.phone_number_id"])
    }).pipe(Effect.provide(server))
  )

  it.live("answers 404 for an unknown inventory number and 409 no_inventory for a taken one", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(10_000)
      const missing = yield* get(client, "/api/v1/phone-numbers/polish/quote?phone_number_id=999999")
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({ detail: "Phone number 999999 not found" })
      const added = yield* addNumber("+48600100201", "mobile")
      expect(
        (yield* post(client, "/api/v1/phone-numbers/polish/order", { number_type: "mobile" })).status
      ).toBe(200)
      const taken = yield* get(client, `/api/v1/phone-numbers/polish/quote?phone_number_id=${added.id}`)
      expect(taken.status).toBe(409)
      expect(taken.body).toEqual({ detail: `no_inventory: number ${added.id} is not available for ordering` })
    }).pipe(Effect.provide(server))
  )

  it.live("answers another organization's number exactly like a missing one, on quote and order", () =>
    Effect.gen(function* () {
      const holder = yield* setup(10_000)
      const other = yield* setup(10_000)
      const added = yield* addNumber("+48600100209", "mobile")
      const ordered = yield* post(holder.client, "/api/v1/phone-numbers/polish/order", {
        number_type: "mobile",
        phone_number_id: added.id
      })
      expect(ordered.status).toBe(200)
      const missingId = added.id + 7_777_777
      for (const [id, seen] of [
        [added.id, "held elsewhere"],
        [missingId, "missing"]
      ] as const) {
        const quote = yield* get(other.client, `/api/v1/phone-numbers/polish/quote?phone_number_id=${id}`)
        expect([seen, quote.status, quote.body]).toEqual([
          seen,
          404,
          { detail: `Phone number ${id} not found` }
        ])
        const order = yield* post(other.client, "/api/v1/phone-numbers/polish/order", {
          number_type: "mobile",
          phone_number_id: id
        })
        expect([seen, order.status, order.body]).toEqual([
          seen,
          404,
          { detail: `Phone number ${id} not found` }
        ])
      }
      // the holder itself is told its number is taken
      const own = yield* get(holder.client, `/api/v1/phone-numbers/polish/quote?phone_number_id=${added.id}`)
      expect(own.status).toBe(409)
      // nothing was debited from the other organization
      expect(yield* balanceOf(other.client)).toBe(100)
    }).pipe(Effect.provide(server))
  )

  it.live("orders a number: activates it now, debits activation + first month and answers both", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(10_000)
      const added = yield* addNumber("+48221234567", "landline")
      const before = Date.now()
      const ordered = yield* post(client, "/api/v1/phone-numbers/polish/order", {
        number_type: "landline",
        phone_number_id: added.id
      })
      const after = Date.now()
      expect(ordered.status).toBe(200)
      const body = ordered.body as Body
      expect(body).toEqual({
        phone_number: {
          id: added.id,
          number: "+48221234567",
          number_type: "landline",
          status: "active",
          activated_at: expect.any(String),
          released_at: null,
          created_at: added.created_at.toISOString()
        },
        charged_pln: 58.99
      })
      const activatedAt = new Date(body.phone_number.activated_at).getTime()
      expect(activatedAt).toBeGreaterThanOrEqual(before)
      expect(activatedAt).toBeLessThanOrEqual(after)
      expect(yield* balanceOf(client)).toBe(41.01)

      // the organization holds it now: listed and readable
      const read = yield* get(client, `/api/v1/phone-numbers/${added.id}`)
      expect(read.status).toBe(200)
      expect(read.body).toEqual(body.phone_number)
    }).pipe(Effect.provide(server))
  )

  it.live("answers 409 no_inventory when no number of the type is left, and changes nothing", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(10_000)
      const none = yield* post(client, "/api/v1/phone-numbers/polish/order", { number_type: "landline" })
      expect(none.status).toBe(409)
      expect(none.body).toEqual({
        detail:
          "no_inventory: no landline number is available; register demand with POST /api/v1/phone-numbers/polish/request"
      })
      // a mobile number is not a landline
      const mobile = yield* addNumber("+48600100202", "mobile")
      const wrongType = yield* post(client, "/api/v1/phone-numbers/polish/order", {
        number_type: "landline",
        phone_number_id: mobile.id
      })
      expect(wrongType.status).toBe(422)
      expect(wrongType.body).toEqual({
        detail: [
          {
            loc: ["body", "phone_number_id"],
            msg: `Phone number ${mobile.id} is a mobile number, not landline`,
            type: "value_error.number_type"
          }
        ]
      })
      const unknown = yield* post(client, "/api/v1/phone-numbers/polish/order", {
        number_type: "mobile",
        phone_number_id: 999999
      })
      expect(unknown.status).toBe(404)
      expect(yield* balanceOf(client)).toBe(100)
    }).pipe(Effect.provide(server))
  )

  it.live(
    "answers 402 with the top-up needed when the balance is short, and leaves the number available",
    () =>
      Effect.gen(function* () {
        const { client } = yield* setup(5000)
        const added = yield* addNumber("+48221234568", "landline")
        const short = yield* post(client, "/api/v1/phone-numbers/polish/order", { number_type: "landline" })
        expect(short.status).toBe(402)
        expect(short.body).toEqual({
          detail:
            "insufficient_balance: 58.99 PLN is needed and the balance is 50.00 PLN; top up at least 8.99 PLN",
          balance_pln: 50,
          required_pln: 58.99,
          top_up_pln: 8.99
        })
        expect(short.headers["x-request-id"]).toBeDefined()
        const quote = yield* get(client, `/api/v1/phone-numbers/polish/quote?phone_number_id=${added.id}`)
        expect(quote.body).toMatchObject({ sufficient: false, top_up_pln: 8.99, balance_pln: 50 })
      }).pipe(Effect.provide(server))
  )

  it.live("answers 422 for an order body that is not exactly the documented one", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(10_000)
      const invalid = yield* post(client, "/api/v1/phone-numbers/polish/order", {
        number_type: "satellite",
        phone_number_id: -1,
        idempotency: "x"
      })
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body).sort()).toEqual(
        ["body.idempotency", "body.number_type", "body.phone_number_id"].sort()
      )
      const missing = yield* post(client, "/api/v1/phone-numbers/polish/order", {})
      expect(missing.status).toBe(422)
      expect(missing.body).toEqual({
        detail: [{ loc: ["body", "number_type"], msg: "Field required", type: "missing" }]
      })
    }).pipe(Effect.provide(server))
  )

  it.live("lists the organization's numbers, paginated, and hides them from everyone else", () =>
    Effect.gen(function* () {
      const { client } = yield* setup(100_000)
      const stranger = yield* setup(100_000)
      for (const n of ["+48600100210", "+48600100211", "+48600100212"]) yield* addNumber(n, "mobile")
      const ids: Array<number> = []
      for (let i = 0; i < 3; i++) {
        const ordered = yield* post(client, "/api/v1/phone-numbers/polish/order", { number_type: "mobile" })
        ids.push((ordered.body as Body).phone_number.id)
        // a few milliseconds apart, so that the order is one of time, not of (random) ids
        yield* Effect.sleep("5 millis")
      }
      const page1 = yield* get(client, "/api/v1/phone-numbers?limit=2")
      expect(page1.status).toBe(200)
      const first = page1.body as Body
      expect(first).toMatchObject({ total_count: 3, total_pages: 2, page: 1, limit: 2 })
      const page2 = (yield* get(client, "/api/v1/phone-numbers?limit=2&page=2")).body as Body
      // newest first, stable across pages
      expect([...first.items, ...page2.items].map((n: Body) => n.id)).toEqual([...ids].reverse())
      const past = (yield* get(client, "/api/v1/phone-numbers?page=9")).body as Body
      expect(past).toEqual({ items: [], total_count: 3, total_pages: 1, page: 9, limit: 50 })
      const bounds = yield* get(client, "/api/v1/phone-numbers?page=0&limit=101")
      expect(bounds.status).toBe(422)
      expect(locs(bounds.body).sort()).toEqual(["query.limit", "query.page"])

      const theirs = (yield* get(stranger.client, "/api/v1/phone-numbers")).body as Body
      expect(theirs).toEqual({ items: [], total_count: 0, total_pages: 0, page: 1, limit: 50 })
      const foreign = yield* get(stranger.client, `/api/v1/phone-numbers/${ids[0]}`)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ detail: `Phone number ${ids[0]} not found` })
      for (const path of ["release-quote", "release"]) {
        const request =
          path === "release"
            ? post(stranger.client, `/api/v1/phone-numbers/${ids[0]}/release`)
            : get(stranger.client, `/api/v1/phone-numbers/${ids[0]}/release-quote`)
        const refused = yield* request
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual({ detail: `Phone number ${ids[0]} not found` })
      }
      const badId = yield* get(client, "/api/v1/phone-numbers/abc")
      expect(badId.status).toBe(422)
      expect(locs(badId.body)).toEqual(["path.phone_number_id"])
    }).pipe(Effect.provide(server))
  )

  it.live("registers demand with consent and lists it, newest first, per organization", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const stranger = yield* setup()
      const before = Date.now()
      const first = yield* post(client, "/api/v1/phone-numbers/polish/request", {
        end_user_id: 42,
        consent: true,
        note: "Kraków area"
      })
      expect(first.status).toBe(200)
      const stored = first.body as Body
      expect(stored).toEqual({
        id: expect.any(Number),
        end_user_id: 42,
        consent: true,
        note: "Kraków area",
        number_type: null,
        status: "open",
        created_at: expect.any(String)
      })
      expect(new Date(stored.created_at).getTime()).toBeGreaterThanOrEqual(before)
      // a few milliseconds later, so that newest first is an order of time, not of (random) ids
      yield* Effect.sleep("5 millis")
      const second = (yield* post(client, "/api/v1/phone-numbers/polish/request", {
        end_user_id: 43,
        consent: true,
        note: "",
        number_type: "landline"
      })).body as Body
      expect(second).toMatchObject({ end_user_id: 43, number_type: "landline", note: "" })

      const listed = yield* get(client, "/api/v1/phone-numbers/polish/requests")
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual({
        items: [second, stored],
        total_count: 2,
        total_pages: 1,
        page: 1,
        limit: 50
      })
      const paged = (yield* get(client, "/api/v1/phone-numbers/polish/requests?limit=1&page=2")).body as Body
      expect(paged).toEqual({ items: [stored], total_count: 2, total_pages: 2, page: 2, limit: 1 })
      expect((yield* get(client, "/api/v1/phone-numbers/polish/requests?limit=0")).status).toBe(422)
      expect(
        ((yield* get(stranger.client, "/api/v1/phone-numbers/polish/requests")).body as Body).total_count
      ).toBe(0)
    }).pipe(Effect.provide(server))
  )

  it.live("answers 422 when consent is not true or a field is missing or mistyped", () =>
    Effect.gen(function* () {
      const { client } = yield* setup()
      const refused = yield* post(client, "/api/v1/phone-numbers/polish/request", {
        end_user_id: 42,
        consent: false,
        note: "x"
      })
      expect(refused.status).toBe(422)
      expect(refused.body).toEqual({
        detail: [
          {
            loc: ["body", "consent"],
            msg: "consent must be true: the end user must agree to the order",
            type: "value_error"
          }
        ]
      })
      const invalid = yield* post(client, "/api/v1/phone-numbers/polish/request", {
        end_user_id: "42",
        number_type: "fax",
        extra: 1
      })
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body).sort()).toEqual(
        ["body.consent", "body.end_user_id", "body.extra", "body.note", "body.number_type"].sort()
      )
      expect(((yield* get(client, "/api/v1/phone-numbers/polish/requests")).body as Body).total_count).toBe(0)
    }).pipe(Effect.provide(server))
  )

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

  it.live("answers 401 before anything else, and documents every refusal", () =>
    Effect.gen(function* () {
      const anonymous = yield* rawClient("")
      for (const [method, path] of [
        ["GET", "/api/v1/phone-numbers"],
        ["GET", "/api/v1/phone-numbers/polish/quote"],
        ["POST", "/api/v1/phone-numbers/polish/order"],
        ["POST", "/api/v1/phone-numbers/1/release"]
      ] as const) {
        const refused = yield* send(anonymous, HttpClientRequest.make(method)(path))
        expect(refused.status).toBe(401)
        expect(refused.body).toEqual({ detail: "Invalid API key" })
      }
      const { client } = yield* setup()
      const doc = (yield* get(client, "/api/v1/public-openapi.json")).body as Body
      const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort()
      expect(statuses("/api/v1/phone-numbers/polish/order", "post")).toEqual([
        "200",
        "401",
        "402",
        "404",
        "409",
        "422"
      ])
      expect(statuses("/api/v1/phone-numbers/{phone_number_id}/release", "post")).toEqual([
        "200",
        "401",
        "402",
        "404",
        "409",
        "422"
      ])
      expect(statuses("/api/v1/phone-numbers/{phone_number_id}/release-quote", "get")).toEqual([
        "200",
        "401",
        "404",
        "409",
        "422"
      ])
      const quoteParams = doc.paths["/api/v1/phone-numbers/polish/quote"].get.parameters.map(
        (p: Body) => p.name
      )
      expect(quoteParams.sort()).toEqual(["number_type", "phone_number_id"])
      expect(doc.components.schemas.ReleaseQuote.required.sort()).toEqual([
        "commitment_until",
        "fee_pln",
        "periods",
        "phone_number_id"
      ])
      const orderParams = doc.paths["/api/v1/phone-numbers/polish/order"].post.parameters as Array<Body>
      expect(orderParams.map((p) => [p.name, p.in, p.required])).toEqual([
        ["Idempotency-Key", "header", false]
      ])
    }).pipe(Effect.provide(server))
  )
})
