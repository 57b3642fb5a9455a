/** Tools over HTTP: invalid bodies, updates and archiving. */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, httpDefinition, isoPattern, locs } from "../support/ToolFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("tools over HTTP, %s storage", (_, server) => {
  it.effect("refuses invalid bodies with a 422 listing every failing field", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const tooLong = yield* send(
        client,
        json("POST", "/api/v1/tools", {
          name: "x".repeat(256),
          icon: "i".repeat(51),
          icon_color: "#1234567",
          definition: httpDefinition,
          extra: 1
        })
      )
      expect(tooLong.status).toBe(422)
      expect(locs(tooLong.body)).toEqual(
        expect.arrayContaining(["body.name", "body.icon", "body.icon_color", "body.extra"])
      )
      const atLimits = yield* send(
        client,
        json("POST", "/api/v1/tools", {
          name: "x".repeat(255),
          icon: "i".repeat(50),
          icon_color: "#123456",
          definition: httpDefinition
        })
      )
      expect(atLimits.status).toBe(200)

      const missing = yield* send(client, json("POST", "/api/v1/tools", {}))
      expect(missing.status).toBe(422)
      expect(missing.body).toEqual({
        detail: expect.arrayContaining([
          { loc: ["body", "name"], msg: "Field required", type: "missing" },
          { loc: ["body", "definition"], msg: "Field required", type: "missing" }
        ])
      })

      for (const definition of [
        { type: "smoke_signal", config: {} },
        { type: "http_api", config: { method: "TRACE", url: "https://example.com" } },
        { type: "http_api", config: { method: "GET", url: "not a url" } },
        { type: "http_api", config: { method: "GET", url: "https://example.com", retries: 3 } },
        {
          type: "http_api",
          config: {
            method: "GET",
            url: "https://example.com",
            parameters: [{ name: "q", type: "date", description: "" }]
          }
        },
        { type: "integration", config: {} },
        { type: "end_call" }
      ]) {
        const refused = yield* send(client, json("POST", "/api/v1/tools", { name: "Bad", definition }))
        expect(refused.status, JSON.stringify(definition)).toBe(422)
        expect(
          locs(refused.body).every((loc) => loc.startsWith("body.definition")),
          JSON.stringify(refused.body)
        ).toBe(true)
      }
      expect((yield* send(client, HttpClientRequest.get("/api/v1/tools"))).body).toMatchObject({
        total_count: 1
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("updates the given fields, validated as on create", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const tool = (yield* send(
        client,
        json("POST", "/api/v1/tools", { name: "Hang up", definition: { type: "end_call", config: {} } })
      )).body as Body
      const updated = yield* send(
        client,
        json("PATCH", `/api/v1/tools/${tool.tool_uuid}`, {
          name: "Lookup",
          description: "Finds the caller",
          icon: "search",
          icon_color: null,
          definition: httpDefinition
        })
      )
      expect(updated.status).toBe(200)
      const body = updated.body as Body
      expect(body).toMatchObject({
        id: tool.id,
        tool_uuid: tool.tool_uuid,
        name: "Lookup",
        description: "Finds the caller",
        icon: "search",
        icon_color: null,
        category: "http_api",
        status: "active",
        created_at: tool.created_at,
        definition: { type: "http_api", config: { timeout_ms: 5000 } }
      })
      expect(body.updated_at).toMatch(isoPattern)

      const invalid = yield* send(
        client,
        json("PATCH", `/api/v1/tools/${tool.tool_uuid}`, {
          name: "",
          icon: "i".repeat(51),
          status: "archived"
        })
      )
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body)).toEqual(expect.arrayContaining(["body.name", "body.icon", "body.status"]))
      const missingCredential = yield* send(
        client,
        json("PATCH", `/api/v1/tools/${tool.tool_uuid}`, {
          definition: { ...httpDefinition, config: { ...httpDefinition.config, credential_uuid: "nope" } }
        })
      )
      expect(missingCredential.status).toBe(404)
      expect(missingCredential.body).toEqual({ detail: "Credential nope not found" })
      expect((yield* send(client, HttpClientRequest.get(`/api/v1/tools/${tool.tool_uuid}`))).body).toEqual(
        body
      )
    }).pipe(Effect.provide(server))
  )

  it.effect(
    "DELETE archives and answers the tool; twice is the same; an archived tool answers 409 to PATCH",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const tool = (yield* send(
          client,
          json("POST", "/api/v1/tools", { name: "Hang up", definition: { type: "end_call", config: {} } })
        )).body as Body
        const archived = yield* send(client, HttpClientRequest.del(`/api/v1/tools/${tool.tool_uuid}`))
        expect(archived.status).toBe(200)
        expect(archived.body).toMatchObject({
          ...tool,
          status: "archived",
          updated_at: expect.stringMatching(isoPattern)
        })
        const again = yield* send(client, HttpClientRequest.del(`/api/v1/tools/${tool.tool_uuid}`))
        expect(again.status).toBe(200)
        expect(again.body).toEqual(archived.body)
        const patched = yield* send(
          client,
          json("PATCH", `/api/v1/tools/${tool.tool_uuid}`, { name: "Again" })
        )
        expect(patched.status).toBe(409)
        expect(patched.body).toEqual({
          detail: `tool_archived: tool ${tool.tool_uuid} is archived and can no longer be changed; create a new tool instead`
        })
        expect((yield* send(client, HttpClientRequest.get(`/api/v1/tools/${tool.tool_uuid}`))).body).toEqual(
          archived.body
        )
      }).pipe(Effect.provide(server))
  )
})
