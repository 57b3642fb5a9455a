import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Integrations, OAuthProvidersConfig } from "@voice-agent-platform/core"
import { Effect, Layer, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Body = Record<string, any>

const locs = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("integrations over HTTP, %s storage", (_, server) => {
  it.effect("lists the known OAuth providers, none configured by default", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const listed = yield* send(
        yield* rawClient(apiKey),
        HttpClientRequest.get("/api/v1/integrations/oauth/providers")
      )
      expect(listed.status).toBe(200)
      expect(listed.body).toEqual({
        providers: [
          { provider: "google", name: "Google", configured: false },
          { provider: "microsoft", name: "Microsoft", configured: false },
          { provider: "hubspot", name: "HubSpot", configured: false },
          { provider: "salesforce", name: "Salesforce", configured: false },
          { provider: "calendly", name: "Calendly", configured: false }
        ]
      })
      const noKey = yield* send(
        yield* rawClient(""),
        HttpClientRequest.get("/api/v1/integrations/oauth/providers")
      )
      expect(noKey.status).toBe(401)
    }).pipe(Effect.provide(server))
  )

  it.effect("marks the providers the deployment configured", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const listed = yield* send(
        yield* rawClient(apiKey),
        HttpClientRequest.get("/api/v1/integrations/oauth/providers")
      )
      expect((listed.body as Body).providers.filter((p: Body) => p.configured)).toEqual([
        { provider: "hubspot", name: "HubSpot", configured: true }
      ])
    }).pipe(
      Effect.provide(
        TestServer.pipe(
          Layer.provide(OAuthProvidersConfig.layer([{ provider: "hubspot", client_id: "client-1" }]))
        )
      )
    )
  )

  it.effect("creates a connection with defaults, masking secrets in config", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const minimal = yield* send(
        client,
        json("POST", "/api/v1/integrations", { provider: "calendly", name: "Bookings" })
      )
      expect(minimal.status).toBe(200)
      expect(minimal.body).toEqual({
        id: expect.stringMatching(/^conn_[A-Za-z0-9]{20}$/),
        provider: "calendly",
        name: "Bookings",
        config: {},
        enabled: true,
        created_at: expect.stringMatching(isoPattern),
        updated_at: expect.stringMatching(isoPattern),
        auth_error: {}
      })
      const created = yield* send(
        client,
        json("POST", "/api/v1/integrations", {
          provider: "hubspot",
          name: "CRM",
          config: {
            portal_id: "42",
            access_token: "tok-secret",
            oauth: { refreshToken: "r-secret" },
            password: null
          },
          enabled: false
        })
      )
      expect(created.status).toBe(200)
      expect(created.text).not.toMatch(/tok-secret|r-secret/)
      const connection = created.body as Body
      expect(connection).toMatchObject({
        enabled: false,
        config: { portal_id: "42", access_token: "****", oauth: { refreshToken: "****" }, password: null }
      })
      const read = yield* send(client, HttpClientRequest.get(`/api/v1/integrations/${connection.id}`))
      expect(read.status).toBe(200)
      expect(read.body).toEqual(connection)
      const stored = yield* (yield* Integrations.Integrations).get(org.id, connection.id)
      expect(stored.config).toMatchObject({ access_token: "tok-secret", oauth: { refreshToken: "r-secret" } })
    }).pipe(Effect.provide(server))
  )

  it.effect("PUT changes only the given fields and keeps secrets sent back masked", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const connection = (yield* send(
        client,
        json("POST", "/api/v1/integrations", {
          provider: "hubspot",
          name: "CRM",
          config: { portal_id: "42", access_token: "tok-secret" }
        })
      )).body as Body
      const path = `/api/v1/integrations/${connection.id}`
      const renamed = yield* send(client, json("PUT", path, { name: "HubSpot" }))
      expect(renamed.status).toBe(200)
      expect(renamed.body).toEqual({
        ...connection,
        name: "HubSpot",
        updated_at: expect.stringMatching(isoPattern)
      })
      const disabled = yield* send(client, json("PUT", path, { enabled: false }))
      expect(disabled.body).toMatchObject({ name: "HubSpot", enabled: false, config: connection.config })
      const roundTrip = yield* send(
        client,
        json("PUT", path, { config: { ...(renamed.body as Body).config, portal_id: "43" } })
      )
      expect(roundTrip.body).toMatchObject({
        config: { portal_id: "43", access_token: "****" },
        enabled: false
      })
      const stored = yield* (yield* Integrations.Integrations).get(org.id, connection.id)
      expect(stored.config).toEqual({ portal_id: "43", access_token: "tok-secret" })
      const replaced = yield* send(client, json("PUT", path, { config: { portal_id: "44" } }))
      expect((replaced.body as Body).config).toEqual({ portal_id: "44" })
      const noop = yield* send(client, json("PUT", path, {}))
      expect(noop.status).toBe(200)
      expect(noop.body).toMatchObject({ name: "HubSpot", enabled: false, config: { portal_id: "44" } })
    }).pipe(Effect.provide(server))
  )

  it.effect("shows only config values known not to be secret, and keeps the hidden ones sent back", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const config = {
        authorization: "Bearer sk_live_0123456789",
        headers: { "X-Signature-Key": "k-123" },
        base_url: "https://crm.example.com/api",
        callback_url: "https://crm.example.com/in?secret=abc",
        portal_id: "42",
        sync: true
      }
      const created = yield* send(
        client,
        json("POST", "/api/v1/integrations", { provider: "hubspot", name: "CRM", config })
      )
      expect(created.status).toBe(200)
      const shown = {
        authorization: "****",
        headers: { "X-Signature-Key": "****" },
        base_url: "https://crm.example.com/api",
        callback_url: "****",
        portal_id: "42",
        sync: true
      }
      expect((created.body as Body).config).toEqual(shown)
      const path = `/api/v1/integrations/${(created.body as Body).id}`
      for (const read of [
        yield* send(client, HttpClientRequest.get(path)),
        yield* send(client, HttpClientRequest.get("/api/v1/integrations"))
      ]) {
        expect(JSON.stringify(read.body)).not.toContain("sk_live")
        expect(JSON.stringify(read.body)).not.toContain("k-123")
      }
      const sentBack = yield* send(client, json("PUT", path, { config: { ...shown, portal_id: "43" } }))
      expect((sentBack.body as Body).config).toEqual({ ...shown, portal_id: "43" })
      const stored = yield* (yield* Integrations.Integrations).get(org.id, (created.body as Body).id)
      expect(stored.config).toEqual({ ...config, portal_id: "43" })
    }).pipe(Effect.provide(server))
  )

  it.effect("refuses invalid bodies with 422 at every failing field", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const missing = yield* send(client, json("POST", "/api/v1/integrations", { config: [] }))
      expect(missing.status).toBe(422)
      expect(locs(missing.body).sort()).toEqual(["body.config", "body.name", "body.provider"])
      const bad = yield* send(
        client,
        json("POST", "/api/v1/integrations", { provider: "Hub Spot", name: "", enabled: "yes", extra: 1 })
      )
      expect(bad.status).toBe(422)
      expect(locs(bad.body).sort()).toEqual(["body.enabled", "body.extra", "body.name", "body.provider"])
      const connection = (yield* send(
        client,
        json("POST", "/api/v1/integrations", { provider: "google", name: "Cal" })
      )).body as Body
      const badPut = yield* send(
        client,
        json("PUT", `/api/v1/integrations/${connection.id}`, { name: "", enabled: 1, provider: "other" })
      )
      expect(badPut.status).toBe(422)
      expect(locs(badPut.body).sort()).toEqual(["body.enabled", "body.name", "body.provider"])
    }).pipe(Effect.provide(server))
  )

  it.effect("deletes with 204, then 404; another organization's connection is 404 everywhere", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const ownerClient = yield* rawClient(owner.apiKey)
      const connection = (yield* send(
        ownerClient,
        json("POST", "/api/v1/integrations", { provider: "google", name: "Cal" })
      )).body as Body
      const path = `/api/v1/integrations/${connection.id}`
      const client = yield* rawClient(stranger.apiKey)
      for (const request of [
        HttpClientRequest.get(path),
        json("PUT", path, { name: "Mine" }),
        HttpClientRequest.del(path)
      ]) {
        const refused = yield* send(client, request)
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual({ detail: `Integration connection ${connection.id} not found` })
      }
      expect((yield* send(client, HttpClientRequest.get("/api/v1/integrations"))).body).toMatchObject({
        items: [],
        total_count: 0
      })
      expect((yield* send(ownerClient, HttpClientRequest.get(path))).body).toEqual(connection)

      const deleted = yield* send(ownerClient, HttpClientRequest.del(path))
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      for (const request of [
        HttpClientRequest.get(path),
        HttpClientRequest.del(path),
        json("PUT", path, { name: "x" })
      ]) {
        const gone = yield* send(ownerClient, request)
        expect(gone.status).toBe(404)
        expect(gone.body).toEqual({ detail: `Integration connection ${connection.id} not found` })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("lists newest first with pagination bounds", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      for (const name of ["one", "two", "three"]) {
        // string ids break no ties in creation order: give each connection its own instant
        yield* TestClock.adjust("1 second")
        yield* send(
          client,
          json("POST", "/api/v1/integrations", { provider: "google", name, config: { api_key: "k" } })
        )
      }
      const page = yield* send(client, HttpClientRequest.get("/api/v1/integrations?page=1&limit=2"))
      expect(page.status).toBe(200)
      expect(page.body).toMatchObject({ total_count: 3, total_pages: 2, page: 1, limit: 2 })
      expect((page.body as Body).items.map((c: Body) => c.name)).toEqual(["three", "two"])
      expect((page.body as Body).items.map((c: Body) => c.config)).toEqual([
        { api_key: "****" },
        { api_key: "****" }
      ])
      const past = yield* send(client, HttpClientRequest.get("/api/v1/integrations?page=3&limit=2"))
      expect(past.body).toEqual({ items: [], total_count: 3, total_pages: 2, page: 3, limit: 2 })
      const bad = yield* send(client, HttpClientRequest.get("/api/v1/integrations?page=0&limit=101"))
      expect(bad.status).toBe(422)
      expect(locs(bad.body)).toEqual(expect.arrayContaining(["query.page", "query.limit"]))
    }).pipe(Effect.provide(server))
  )
})
