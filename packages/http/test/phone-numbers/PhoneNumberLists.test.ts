/** Phone numbers over HTTP: the organization's numbers and its registered demand. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, setup, addNumber, get, post, locs } from "../support/PhoneNumberFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("phone numbers over HTTP, %s storage", (_, server) => {
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
})
