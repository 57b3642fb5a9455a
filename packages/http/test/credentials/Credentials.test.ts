import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Credentials } from "@voice-agent-platform/core"
import { Effect, Redacted, TestClock } from "effect"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Body = Record<string, any>

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

const locs = (body: unknown) =>
  (body as { detail: Array<{ loc: Array<string | number> }> }).detail.map((d) => d.loc.join("."))

const toolUsing = (credential_uuid: string) => ({
  name: "Lookup",
  definition: { type: "http_api", config: { method: "GET", url: "https://example.com", credential_uuid } }
})

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("credentials over HTTP, %s storage", (_, server) => {
  it.effect("creates a credential and never returns its secret", () =>
    Effect.gen(function* () {
      const { apiKey, organization: org } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        json("POST", "/api/v1/credentials", {
          name: "CRM key",
          kind: "api_key_header",
          secret: "very-secret-value",
          header_name: "X-Api-Key"
        })
      )
      expect(created.status).toBe(200)
      expect(created.body).toEqual({
        credential_uuid: expect.stringMatching(uuidPattern),
        name: "CRM key",
        kind: "api_key_header",
        header_name: "X-Api-Key",
        has_secret: true,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/)
      })
      const credential = created.body as Body
      for (const url of [`/api/v1/credentials/${credential.credential_uuid}`, "/api/v1/credentials"]) {
        const read = yield* send(client, HttpClientRequest.get(url))
        expect(read.status).toBe(200)
        expect(read.text).not.toContain("very-secret-value")
      }
      expect(
        (yield* send(client, HttpClientRequest.get(`/api/v1/credentials/${credential.credential_uuid}`))).body
      ).toEqual(credential)
      const stored = yield* (yield* Credentials.Credentials).get(org.id, credential.credential_uuid)
      expect(Redacted.value(stored.secret)).toBe("very-secret-value")

      const bearer = yield* send(
        client,
        json("POST", "/api/v1/credentials", { name: "Token", kind: "bearer", secret: "t" })
      )
      expect(bearer.body).toMatchObject({ kind: "bearer", header_name: null, has_secret: true })
      const basic = yield* send(
        client,
        json("POST", "/api/v1/credentials", {
          name: "Basic",
          kind: "basic",
          secret: "user:pass",
          header_name: null
        })
      )
      expect(basic.status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("refuses invalid bodies with 422 at the failing field", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const cases: Array<[unknown, Array<string>]> = [
        [{}, ["body.name", "body.kind", "body.secret"]],
        [{ name: "K", kind: "oauth", secret: "s", extra: 1 }, ["body.kind", "body.extra"]],
        [{ name: "K", kind: "api_key_header", secret: "s" }, ["body.header_name"]],
        [{ name: "K", kind: "bearer", secret: "s", header_name: "X-Key" }, ["body.header_name"]],
        [
          { name: "K", kind: "api_key_header", secret: "s", header_name: "Not a header" },
          ["body.header_name"]
        ],
        [{ name: "K", kind: "basic", secret: "no-colon" }, ["body.secret"]],
        [{ name: "x".repeat(256), kind: "bearer", secret: "" }, ["body.name", "body.secret"]]
      ]
      for (const [body, expected] of cases) {
        const refused = yield* send(client, json("POST", "/api/v1/credentials", body))
        expect(refused.status, JSON.stringify(body)).toBe(422)
        expect([...new Set(locs(refused.body))].sort(), JSON.stringify(body)).toEqual([...expected].sort())
      }
      const refused = yield* send(
        client,
        json("POST", "/api/v1/credentials", { name: "K", kind: "api_key_header", secret: "s" })
      )
      expect(refused.body).toEqual({
        detail: [
          {
            loc: ["body", "header_name"],
            msg: "header_name is required for kind api_key_header",
            type: expect.any(String)
          }
        ]
      })
      expect((yield* send(client, HttpClientRequest.get("/api/v1/credentials"))).body).toMatchObject({
        total_count: 0
      })
    }).pipe(Effect.provide(server))
  )

  it.effect("deletes with 204; 409 naming the active tools that use it; 404 afterwards", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const credential = (yield* send(
        client,
        json("POST", "/api/v1/credentials", { name: "Token", kind: "bearer", secret: "t" })
      )).body as Body
      const path = `/api/v1/credentials/${credential.credential_uuid}`
      const tool = (yield* send(client, json("POST", "/api/v1/tools", toolUsing(credential.credential_uuid))))
        .body as Body
      const inUse = yield* send(client, HttpClientRequest.del(path))
      expect(inUse.status).toBe(409)
      expect(inUse.body).toEqual({
        detail: `credential_in_use: credential ${credential.credential_uuid} is used by the active tools ${tool.tool_uuid}; archive them or point them at another credential first`
      })
      expect((yield* send(client, HttpClientRequest.get(path))).status).toBe(200)

      yield* send(client, HttpClientRequest.del(`/api/v1/tools/${tool.tool_uuid}`))
      const deleted = yield* send(client, HttpClientRequest.del(path))
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      expect(deleted.headers["x-request-id"]).toBeDefined()
      for (const request of [HttpClientRequest.get(path), HttpClientRequest.del(path)]) {
        const gone = yield* send(client, request)
        expect(gone.status).toBe(404)
        expect(gone.body).toEqual({ detail: `Credential ${credential.credential_uuid} not found` })
      }
    }).pipe(Effect.provide(server))
  )

  it.effect("another organization's credential is 404; lists are paginated and scoped", () =>
    Effect.gen(function* () {
      const owner = yield* organization()
      const stranger = yield* organization()
      const ownerClient = yield* rawClient(owner.apiKey)
      const names = ["one", "two", "three"]
      const created: Array<Body> = []
      for (const name of names) {
        yield* TestClock.adjust("1 second")
        created.push(
          (yield* send(
            ownerClient,
            json("POST", "/api/v1/credentials", { name, kind: "bearer", secret: "s" })
          )).body as Body
        )
      }
      const client = yield* rawClient(stranger.apiKey)
      const path = `/api/v1/credentials/${created[0]!.credential_uuid}`
      for (const request of [HttpClientRequest.get(path), HttpClientRequest.del(path)]) {
        const refused = yield* send(client, request)
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual({ detail: `Credential ${created[0]!.credential_uuid} not found` })
      }
      expect((yield* send(client, HttpClientRequest.get("/api/v1/credentials"))).body).toEqual({
        items: [],
        total_count: 0,
        total_pages: 0,
        page: 1,
        limit: 50
      })
      const page = yield* send(ownerClient, HttpClientRequest.get("/api/v1/credentials?page=2&limit=2"))
      expect(page.body).toMatchObject({ total_count: 3, total_pages: 2, page: 2, limit: 2 })
      expect((page.body as Body).items).toHaveLength(1)
      const all = yield* send(ownerClient, HttpClientRequest.get("/api/v1/credentials"))
      expect((all.body as Body).items.map((c: Body) => c.name)).toEqual(["three", "two", "one"])
      const bad = yield* send(ownerClient, HttpClientRequest.get("/api/v1/credentials?page=0&limit=101"))
      expect(bad.status).toBe(422)
      expect(locs(bad.body)).toEqual(expect.arrayContaining(["query.page", "query.limit"]))
      expect((yield* send(ownerClient, HttpClientRequest.get(path))).status).toBe(200)
    }).pipe(Effect.provide(server))
  )
})
