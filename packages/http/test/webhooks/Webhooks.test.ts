import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, now } from "../support/WebhookFixtures.js"

const endpointKeys = ["created_at", "description", "enabled", "events", "id", "url"]

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("webhook endpoints over HTTP, %s storage", (_, server) => {
  it.effect("creates an endpoint with its secret once, lists, reads, updates and deletes it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(new Date(now).getTime())
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://crm.example.com/hooks", description: " CRM " })
      )
      expect(created.status).toBe(200)
      const endpoint = created.body as Body
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^whk_[A-Za-z0-9]{20}$/),
        url: "https://crm.example.com/hooks",
        description: "CRM",
        events: [
          "call.started",
          "call.ended",
          "call.deleted",
          "call.analyzed",
          "campaign.started",
          "campaign.completed",
          "campaign.contact.skipped"
        ],
        enabled: true,
        created_at: now,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)
      })
      yield* TestClock.adjust("1 second")
      const second = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:8080/in", events: ["call.ended"] })
      )
      expect(second.body).toMatchObject({ events: ["call.ended"], description: null })

      const list = yield* send(client, HttpClientRequest.get("/api/v1/webhooks?limit=1"))
      expect(list.status).toBe(200)
      expect(list.body).toEqual({
        items: [expect.objectContaining({ id: (second.body as Body).id })],
        total_count: 2,
        total_pages: 2,
        page: 1,
        limit: 1
      })
      expect(Object.keys((list.body as Body).items[0]).sort()).toEqual(endpointKeys)
      const page2 = yield* send(client, HttpClientRequest.get("/api/v1/webhooks?limit=1&page=2"))
      expect((page2.body as Body).items.map((e: Body) => e.id)).toEqual([endpoint.id])

      const path = `/api/v1/webhooks/${endpoint.id}`
      const read = yield* send(client, HttpClientRequest.get(path))
      expect(read.status).toBe(200)
      const { secret: _secret, ...withoutSecret } = endpoint
      expect(read.body).toEqual(withoutSecret)

      const patched = yield* send(
        client,
        json("PATCH", path, { url: "https://crm.example.com/v2", events: ["call.deleted"], enabled: false })
      )
      expect(patched.status).toBe(200)
      expect(patched.body).toEqual({
        ...withoutSecret,
        url: "https://crm.example.com/v2",
        events: ["call.deleted"],
        enabled: false
      })
      const unchanged = yield* send(client, json("PATCH", path, {}))
      expect(unchanged.body).toEqual(patched.body)

      const deleted = yield* send(client, HttpClientRequest.del(path))
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      const gone = yield* send(client, HttpClientRequest.get(path))
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ detail: `Webhook endpoint ${endpoint.id} not found` })
      expect((yield* send(client, HttpClientRequest.del(path))).status).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 404 for another organization's or an unknown endpoint", () =>
    Effect.gen(function* () {
      const owner = yield* rawClient((yield* organization()).apiKey)
      const stranger = yield* rawClient((yield* organization()).apiKey)
      const created = yield* send(owner, json("POST", "/api/v1/webhooks", { url: "https://a.example/h" }))
      const id = (created.body as Body).id as string
      const notFound = { detail: `Webhook endpoint ${id} not found` }
      for (const request of [
        HttpClientRequest.get(`/api/v1/webhooks/${id}`),
        json("PATCH", `/api/v1/webhooks/${id}`, { enabled: false }),
        HttpClientRequest.del(`/api/v1/webhooks/${id}`),
        HttpClientRequest.get(`/api/v1/webhooks/${id}/deliveries`)
      ]) {
        const answer = yield* send(stranger, request)
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual(notFound)
      }
      expect((yield* send(stranger, HttpClientRequest.get("/api/v1/webhooks"))).body).toMatchObject({
        items: [],
        total_count: 0
      })
      const unknown = yield* send(owner, HttpClientRequest.get("/api/v1/webhooks/whk_nope"))
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Webhook endpoint whk_nope not found" })
      // the owner still has it
      expect((yield* send(owner, HttpClientRequest.get(`/api/v1/webhooks/${id}`))).status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 422 for a bad url, events, unknown fields and page bounds", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      const locs = (body: unknown) =>
        (body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      for (const url of [
        "ftp://example.com/x",
        "/relative/path",
        "not a url",
        "https://user:pw@example.com/"
      ]) {
        const bad = yield* send(client, json("POST", "/api/v1/webhooks", { url }))
        expect(bad.status).toBe(422)
        expect(locs(bad.body)).toEqual(["body.url"])
      }
      const invalid = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://a.example/h", events: ["call.exploded"], extra: 1 })
      )
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body)).toEqual(expect.arrayContaining(["body.events.0", "body.extra"]))
      const empty = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://a.example/h", events: [] })
      )
      expect(empty.status).toBe(422)
      expect(locs(empty.body)).toEqual(["body.events"])
      const missing = yield* send(client, json("POST", "/api/v1/webhooks", {}))
      expect(missing.status).toBe(422)
      expect(locs(missing.body)).toEqual(["body.url"])

      const created = yield* send(client, json("POST", "/api/v1/webhooks", { url: "https://a.example/h" }))
      const id = (created.body as Body).id as string
      const patch = yield* send(
        client,
        json("PATCH", `/api/v1/webhooks/${id}`, { enabled: "yes", secret: "x" })
      )
      expect(patch.status).toBe(422)
      expect(locs(patch.body)).toEqual(expect.arrayContaining(["body.enabled", "body.secret"]))
      for (const query of ["limit=0", "limit=101", "page=0"]) {
        const list = yield* send(client, HttpClientRequest.get(`/api/v1/webhooks?${query}`))
        expect(list.status).toBe(422)
        const log = yield* send(client, HttpClientRequest.get(`/api/v1/webhooks/${id}/deliveries?${query}`))
        expect(log.status).toBe(422)
      }
    }).pipe(Effect.provide(server))
  )
})
