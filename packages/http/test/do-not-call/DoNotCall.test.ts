import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const warsawNoon = "2026-02-10T11:00:00.000Z"

const setNow = (iso: string) => TestClock.setTime(new Date(iso).getTime())

type Body = Record<string, any>

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("the Do not call list over HTTP, %s storage", (_, server) => {
  it.effect("adds a number in E.164, lists it, and re-adding keeps it once with the new reason", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const client = yield* rawClient((yield* organization()).apiKey)
      const added = yield* send(
        client,
        json("POST", "/api/v1/do-not-call", {
          phone_number: "+48 500-100-200",
          reason: "Asked on 2026-02-09"
        })
      )
      expect(added.status).toBe(200)
      expect(added.body).toEqual({
        phone_number: "+48500100200",
        reason: "Asked on 2026-02-09",
        created_at: warsawNoon
      })

      yield* setNow("2026-02-10T11:00:05.000Z")
      const again = yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48500100200" }))
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ phone_number: "+48500100200", reason: null, created_at: warsawNoon })
      yield* setNow("2026-02-10T11:00:10.000Z")
      yield* send(
        client,
        json("POST", "/api/v1/do-not-call", { phone_number: "+48 22 123 45 67", reason: null })
      )

      const listed = yield* send(client, HttpClientRequest.get("/api/v1/do-not-call"))
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual({
        items: [
          { phone_number: "+48221234567", reason: null, created_at: "2026-02-10T11:00:10.000Z" },
          { phone_number: "+48500100200", reason: null, created_at: warsawNoon }
        ],
        total_count: 2,
        total_pages: 1,
        page: 1,
        limit: 50
      })
      const paged = yield* send(client, HttpClientRequest.get("/api/v1/do-not-call?limit=1&page=2"))
      expect(paged.body).toMatchObject({ total_count: 2, total_pages: 2, page: 2, limit: 1 })
      expect((paged.body as Body).items.map((e: Body) => e.phone_number)).toEqual(["+48500100200"])
      const bad = yield* send(client, HttpClientRequest.get("/api/v1/do-not-call?page=0&limit=0"))
      expect(bad.status).toBe(422)
      expect(
        (bad.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      ).toEqual(expect.arrayContaining(["query.page", "query.limit"]))
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 422 at body.phone_number for an invalid number, and for unknown fields", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      const invalid = yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "12345" }))
      expect(invalid.status).toBe(422)
      expect(invalid.body).toEqual({
        detail: [
          {
            loc: ["body", "phone_number"],
            msg: "phone_number must be a valid phone number in international format, e.g. +48500000486",
            type: "value_error.phone_number"
          }
        ]
      })
      const malformed = yield* send(client, json("POST", "/api/v1/do-not-call", { reason: 5, extra: 1 }))
      expect(malformed.status).toBe(422)
      expect(
        (malformed.body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      ).toEqual(expect.arrayContaining(["body.phone_number", "body.reason", "body.extra"]))
      expect(
        ((yield* send(client, HttpClientRequest.get("/api/v1/do-not-call"))).body as Body).total_count
      ).toBe(0)
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "removes a number written in any format, URL-encoded; 404 when not listed, 422 when invalid",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const owner = yield* organization()
        const client = yield* rawClient(owner.apiKey)
        const stranger = yield* rawClient((yield* organization()).apiKey)
        yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48500100200" }))
        const remove = (c: typeof client, written: string) =>
          send(c, HttpClientRequest.del(`/api/v1/do-not-call/${encodeURIComponent(written)}`))

        const foreign = yield* remove(stranger, "+48500100200")
        expect(foreign.status).toBe(404)
        expect(foreign.body).toEqual({ detail: "+48500100200 is not on the organization's Do not call list" })

        const removed = yield* remove(client, "+48 (500) 100-200")
        expect(removed.status).toBe(204)
        expect(removed.text).toBe("")
        expect(
          ((yield* send(client, HttpClientRequest.get("/api/v1/do-not-call"))).body as Body).total_count
        ).toBe(0)

        const again = yield* remove(client, "+48500100200")
        expect(again.status).toBe(404)
        expect(again.body).toEqual({ detail: "+48500100200 is not on the organization's Do not call list" })

        // a number written plainly in the path works too
        yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48221234567" }))
        expect((yield* send(client, HttpClientRequest.del("/api/v1/do-not-call/+48221234567"))).status).toBe(
          204
        )

        const invalid = yield* remove(client, "12345")
        expect(invalid.status).toBe(422)
        expect(invalid.body).toEqual({
          detail: [
            {
              loc: ["path", "phone_number"],
              msg: "phone_number must be a valid phone number in international format, e.g. +48500000486",
              type: "value_error"
            }
          ]
        })
      }).pipe(Effect.provide(server))
  )

  it.effect("a listed number is refused with 403 until it is removed", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const client = yield* rawClient((yield* organization()).apiKey)
      const agent = (yield* send(
        client,
        json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hello!" } })
      )).body as { public_id: string }
      yield* send(client, json("POST", "/api/v1/do-not-call", { phone_number: "+48 500 100 200" }))
      const place = send(
        client,
        json("POST", `/api/v1/agents/${agent.public_id}/calls`, { phone_number: "+48500100200" })
      )
      const refused = yield* place
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({
        detail: "do_not_call: +48500100200 is on the organization's Do not call list"
      })
      expect((yield* send(client, HttpClientRequest.del("/api/v1/do-not-call/%2B48500100200"))).status).toBe(
        204
      )
      expect((yield* place).status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 401 without a key", () =>
    Effect.gen(function* () {
      const anonymous = yield* rawClient("")
      for (const request of [
        json("POST", "/api/v1/do-not-call", { phone_number: "nonsense" }),
        HttpClientRequest.get("/api/v1/do-not-call"),
        HttpClientRequest.del("/api/v1/do-not-call/12345")
      ]) {
        const refused = yield* send(anonymous, request)
        expect(refused.status).toBe(401)
        expect(refused.body).toEqual({ detail: "Invalid API key" })
      }
    }).pipe(Effect.provide(server))
  )
})
