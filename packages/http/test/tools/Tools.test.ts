import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Tools } from "@voice-agent-platform/core"
import { Effect, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, httpDefinition, isoPattern, locs } from "../support/ToolFixtures.js"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("tools over HTTP, %s storage", (_, server) => {
  it.effect("creates a tool with the documented defaults, ignoring an authorization header", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        json("POST", "/api/v1/tools", { name: "CRM lookup", definition: httpDefinition }).pipe(
          HttpClientRequest.setHeader("authorization", "Bearer something-else")
        )
      )
      expect(created.status).toBe(200)
      const tool = created.body as Body
      expect(tool).toEqual({
        id: expect.any(Number),
        tool_uuid: expect.stringMatching(uuidPattern),
        name: "CRM lookup",
        description: null,
        category: "http_api",
        icon: "globe",
        icon_color: "#3B82F6",
        status: "active",
        definition: {
          schema_version: 1,
          type: "http_api",
          config: {
            method: "POST",
            url: "https://crm.example.com/lookup",
            parameters: [
              { name: "email", type: "string", description: "The caller's email", required: true }
            ],
            timeout_ms: 5000
          }
        },
        created_at: expect.stringMatching(isoPattern),
        updated_at: null,
        created_by: null
      })
      expect(created.headers["x-request-id"]).toBeDefined()
      const read = yield* send(client, HttpClientRequest.get(`/api/v1/tools/${tool.tool_uuid}`))
      expect(read.status).toBe(200)
      expect(read.body).toEqual(tool)

      const custom = yield* send(
        client,
        json("POST", "/api/v1/tools", {
          name: "Hang up",
          description: "Ends the call",
          category: "call_control",
          icon: null,
          icon_color: "#000000",
          definition: { type: "end_call", config: { messageType: "custom", customMessage: "Bye" } }
        })
      )
      expect(custom.status).toBe(200)
      expect(custom.body).toMatchObject({
        description: "Ends the call",
        category: "call_control",
        icon: null,
        icon_color: "#000000",
        definition: {
          schema_version: 1,
          type: "end_call",
          config: { messageType: "custom", customMessage: "Bye" }
        }
      })
      const transfer = yield* send(
        client,
        json("POST", "/api/v1/tools", { name: "Transfer", definition: { type: "transfer", config: {} } })
      )
      expect(transfer.body).toMatchObject({
        category: "transfer",
        definition: { type: "transfer", config: {} }
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("stores an integration tool's api_key but never returns it", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        json("POST", "/api/v1/tools", {
          name: "CRM",
          definition: {
            type: "integration",
            config: { provider: "hubspot", crm_type: "hubspot", api_key: "sk-secret-1" }
          }
        })
      )
      expect(created.status).toBe(200)
      expect(created.text).not.toContain("sk-secret-1")
      const tool = created.body as Body
      expect(tool.definition).toEqual({
        schema_version: 1,
        type: "integration",
        config: { provider: "hubspot", crm_type: "hubspot", api_key: null }
      })
      for (const url of [`/api/v1/tools/${tool.tool_uuid}`, "/api/v1/tools"]) {
        const read = yield* send(client, HttpClientRequest.get(url))
        expect(read.status).toBe(200)
        expect(read.text).not.toContain("sk-secret-1")
      }
      // sending back what was read keeps the key
      const renamed = yield* send(
        client,
        json("PATCH", `/api/v1/tools/${tool.tool_uuid}`, { name: "CRM 2", definition: tool.definition })
      )
      expect(renamed.status).toBe(200)
      expect(renamed.text).not.toContain("sk-secret-1")
      const stored = yield* (yield* Tools.Tools).get(org.id, tool.tool_uuid)
      expect(stored.definition).toMatchObject({ config: { api_key: "sk-secret-1" } })
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 404 for an unknown or another organization's credential_uuid", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const client = yield* rawClient(owner.apiKey)
      const foreign = (yield* send(
        yield* rawClient(stranger.apiKey),
        json("POST", "/api/v1/credentials", { name: "Token", kind: "bearer", secret: "t" })
      )).body as Body
      for (const credential_uuid of ["00000000-0000-4000-8000-000000000000", foreign.credential_uuid]) {
        const refused = yield* send(
          client,
          json("POST", "/api/v1/tools", {
            name: "Lookup",
            definition: { ...httpDefinition, config: { ...httpDefinition.config, credential_uuid } }
          })
        )
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual({ detail: `Credential ${credential_uuid} not found` })
      }
      const mine = (yield* send(
        client,
        json("POST", "/api/v1/credentials", { name: "Token", kind: "bearer", secret: "t" })
      )).body as Body
      const accepted = yield* send(
        client,
        json("POST", "/api/v1/tools", {
          name: "Lookup",
          definition: {
            ...httpDefinition,
            config: { ...httpDefinition.config, credential_uuid: mine.credential_uuid }
          }
        })
      )
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({
        definition: { config: { credential_uuid: mine.credential_uuid } }
      })
      const listed = yield* send(client, HttpClientRequest.get("/api/v1/tools"))
      expect((listed.body as Body).total_count).toBe(1)
    }).pipe(Effect.provide(server))
  )

  it.effect("another organization's tool is 404 everywhere; 401 comes first", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const tool = (yield* send(
        yield* rawClient(owner.apiKey),
        json("POST", "/api/v1/tools", { name: "Hang up", definition: { type: "end_call", config: {} } })
      )).body as Body
      const client = yield* rawClient(stranger.apiKey)
      const path = `/api/v1/tools/${tool.tool_uuid}`
      for (const request of [
        HttpClientRequest.get(path),
        json("PATCH", path, { name: "Mine" }),
        HttpClientRequest.del(path)
      ]) {
        const refused = yield* send(client, request)
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual({ detail: `Tool ${tool.tool_uuid} not found` })
      }
      expect((yield* send(client, HttpClientRequest.get("/api/v1/tools"))).body).toMatchObject({
        items: [],
        total_count: 0
      })
      const noKey = yield* send(yield* rawClient(""), json("POST", "/api/v1/tools", { invalid: true }))
      expect(noKey.status).toBe(401)
      expect(noKey.body).toEqual({ detail: "Invalid API key" })
      const ownerView = yield* send(yield* rawClient(owner.apiKey), HttpClientRequest.get(path))
      expect(ownerView.body).toEqual(tool)
    }).pipe(Effect.provide(server))
  )

  it.effect("lists newest first with pagination and a status filter", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const uuids: Array<string> = []
      for (const name of ["one", "two", "three"]) {
        const created = yield* send(
          client,
          json("POST", "/api/v1/tools", { name, definition: { type: "end_call", config: {} } })
        )
        uuids.push((created.body as Body).tool_uuid)
        // a second apart, so that newest first is an order of time, not of (random) ids
        yield* TestClock.adjust("1 second")
      }
      yield* send(client, HttpClientRequest.del(`/api/v1/tools/${uuids[0]}`))
      const page = yield* send(client, HttpClientRequest.get("/api/v1/tools?page=1&limit=2"))
      expect(page.body).toMatchObject({ total_count: 3, total_pages: 2, page: 1, limit: 2 })
      expect((page.body as Body).items.map((t: Body) => t.name)).toEqual(["three", "two"])
      const past = yield* send(client, HttpClientRequest.get("/api/v1/tools?page=5&limit=2"))
      expect(past.status).toBe(200)
      expect(past.body).toEqual({ items: [], total_count: 3, total_pages: 2, page: 5, limit: 2 })
      const archived = yield* send(client, HttpClientRequest.get("/api/v1/tools?status=archived"))
      expect((archived.body as Body).items.map((t: Body) => t.tool_uuid)).toEqual([uuids[0]])
      const active = yield* send(client, HttpClientRequest.get("/api/v1/tools?status=active"))
      expect((active.body as Body).total_count).toBe(2)
      const bad = yield* send(client, HttpClientRequest.get("/api/v1/tools?page=0&limit=101&status=deleted"))
      expect(bad.status).toBe(422)
      expect(locs(bad.body)).toEqual(expect.arrayContaining(["query.page", "query.limit", "query.status"]))
      const zero = yield* send(client, HttpClientRequest.get("/api/v1/tools?limit=0"))
      expect(zero.status).toBe(422)
      const max = yield* send(client, HttpClientRequest.get("/api/v1/tools?limit=100"))
      expect(max.status).toBe(200)
    }).pipe(Effect.provide(server))
  )
})
