import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { answerJson, receiver } from "../support/Receiver.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, createTool, testTool, httpApi } from "../support/ToolTestFixtures.js"

const parameters = [
  { name: "id", type: "string", description: "The order" },
  { name: "count", type: "number", description: "How many", required: false },
  { name: "urgent", type: "boolean", description: "Whether urgent", required: false }
]

describe("POST /tools/{tool_uuid}/test through a real server and a local receiver", () => {
  it.scopedLive(
    "GET and DELETE send arguments as query parameters, POST, PUT and PATCH as a JSON body; placeholders are filled",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((request, response) =>
          answerJson(response, 200, { method: request.method, done: true })
        )
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        for (const method of ["GET", "DELETE", "POST", "PUT", "PATCH"]) {
          const toolUuid = yield* createTool(
            client,
            httpApi({
              method,
              url: `${local.origin}/orders/{{id}}/{{initial_context.shop}}`,
              headers: { "X-Customer": "{{initial_context.customer.name}}/{{ count }}" },
              parameters
            })
          )
          const answer = yield* testTool(client, toolUuid, {
            arguments: { id: "a/b c", count: 2, urgent: true },
            initial_context: { shop: "Kraków 1", customer: { name: "Anna" } }
          })
          expect(answer.status, answer.text).toBe(200)
          expect(answer.body).toEqual({
            ok: true,
            status_code: 200,
            duration_ms: expect.any(Number),
            response: { method, done: true },
            message: null,
            error: null
          })
          const seen = local.requests.at(-1)!
          expect(seen.method).toBe(method)
          expect(seen.headers["x-customer"]).toBe("Anna/2")
          if (method === "GET" || method === "DELETE") {
            expect(seen.url).toBe("/orders/a%2Fb%20c/Krak%C3%B3w%201?count=2&urgent=true")
            expect(seen.body).toBe("")
          } else {
            expect(seen.url).toBe("/orders/a%2Fb%20c/Krak%C3%B3w%201")
            expect(seen.headers["content-type"]).toBe("application/json")
            expect(JSON.parse(seen.body)).toEqual({ count: 2, urgent: true })
          }
        }
        expect(local.requests).toHaveLength(5)
      }).pipe(Effect.provide(TestServer))
  )

  it.scopedLive(
    "a call that does not match the parameters is invalid_arguments, and no request is made",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((_, response) => answerJson(response, 200, {}))
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const toolUuid = yield* createTool(
          client,
          httpApi({
            method: "POST",
            url: `${local.origin}/x`,
            parameters,
            error_message: "Sorry, that failed."
          })
        )
        for (const args of [{}, { id: 7 }, { id: "1", count: "2" }, { id: "1", other: true }]) {
          const answer = yield* testTool(client, toolUuid, { arguments: args })
          expect(answer.status).toBe(200)
          expect(answer.body).toMatchObject({
            ok: false,
            status_code: null,
            response: null,
            message: "Sorry, that failed.",
            error: { type: "invalid_arguments", detail: expect.any(String) }
          })
        }
        // A stored secret with a line break cannot go into a header: a clear failure, not a 500.
        const credential = yield* send(
          client,
          json("POST", "/api/v1/credentials", {
            name: "Broken",
            kind: "bearer",
            secret: "line\nbreak-secret"
          })
        )
        const broken = yield* createTool(
          client,
          httpApi({
            method: "GET",
            url: `${local.origin}/x`,
            credential_uuid: (credential.body as Body).credential_uuid
          })
        )
        const refused = yield* testTool(client, broken)
        expect(refused.status).toBe(200)
        expect(refused.body).toMatchObject({ ok: false, error: { type: "invalid_arguments" } })
        expect(refused.text).not.toContain("break-secret")
        expect(local.connections).toHaveLength(0)
      }).pipe(Effect.provide(TestServer))
  )

  describe.each([
    ["in-memory", TestServer],
    ["SQL (embedded PostgreSQL)", TestServerOverSql]
  ] as const)("credentials, %s storage", (_, server) => {
    it.scopedLive("the receiver sees each kind's header; no answer shows the secret, even echoed back", () =>
      Effect.gen(function* () {
        // The receiver echoes every header back, as some test services do.
        const local = yield* receiver((request, response) =>
          answerJson(response, 200, { headers: request.headers })
        )
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const cases = [
          {
            kind: "bearer",
            secret: "bearer-secret-123",
            header: "authorization",
            expected: "Bearer bearer-secret-123"
          },
          {
            kind: "basic",
            secret: "user:pass-secret-456",
            header: "authorization",
            expected: `Basic ${Buffer.from("user:pass-secret-456").toString("base64")}`
          },
          {
            kind: "api_key_header",
            secret: "key-secret-789",
            header_name: "X-Service-Key",
            header: "x-service-key",
            expected: "key-secret-789"
          }
        ]
        for (const { expected, header, ...credentialRequest } of cases) {
          const credential = yield* send(
            client,
            json("POST", "/api/v1/credentials", { name: credentialRequest.kind, ...credentialRequest })
          )
          expect(credential.status, credential.text).toBe(200)
          const toolUuid = yield* createTool(
            client,
            httpApi({
              method: "GET",
              url: `${local.origin}/whoami`,
              credential_uuid: (credential.body as Body).credential_uuid
            })
          )
          const answer = yield* testTool(client, toolUuid)
          expect(local.requests.at(-1)!.headers[header]).toBe(expected)
          expect(answer.body).toMatchObject({ ok: true, status_code: 200 })
          expect((answer.body as Body).response.headers[header]).toBe("****")
          expect(answer.text).not.toContain(credentialRequest.secret)
          expect(answer.text).not.toContain(expected)
        }
      }).pipe(Effect.provide(server))
    )
  })

  it.scopedLive(
    "404 for an unknown or another organization's tool, 409 for an archived one, 422 for an integration without a provider and for bad input",
    () =>
      Effect.gen(function* () {
        const owner = yield* organization()
        const other = yield* organization()
        const client = yield* rawClient(owner.apiKey)
        const otherClient = yield* rawClient(other.apiKey)
        const toolUuid = yield* createTool(client, { type: "end_call", config: {} })
        expect((yield* testTool(otherClient, toolUuid)).status).toBe(404)
        expect((yield* testTool(client, "00000000-0000-4000-8000-000000000000")).status).toBe(404)

        const integration = yield* createTool(client, {
          type: "integration",
          config: { provider: "weather", api_key: "integration-secret" }
        })
        const refused = yield* testTool(client, integration)
        expect(refused.status).toBe(422)
        expect(refused.body).toEqual({
          detail: [
            {
              loc: ["path", "tool_uuid"],
              msg: expect.stringContaining("no integration provider adapter"),
              type: "value_error.integration_provider_missing"
            }
          ]
        })
        expect(refused.text).not.toContain("integration-secret")

        for (const body of [
          { arguments: [] },
          { arguments: "x" },
          { initial_context: 5 },
          { unknown: true },
          { arguments: { a: "x".repeat(70 * 1024) } }
        ]) {
          const answer = yield* testTool(client, toolUuid, body)
          expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(422)
          expect((answer.body as Body).detail[0].loc[0]).toBe("body")
        }

        yield* send(client, HttpClientRequest.del(`/api/v1/tools/${toolUuid}`))
        const archived = yield* testTool(client, toolUuid)
        expect(archived.status).toBe(409)
        expect((archived.body as Body).detail).toMatch(/^tool_archived:/)
      }).pipe(Effect.provide(TestServer))
  )
})
