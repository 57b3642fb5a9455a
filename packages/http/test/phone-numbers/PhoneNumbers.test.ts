import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, setup, addNumber, get, post, balanceOf, locs } from "../support/PhoneNumberFixtures.js"

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
