import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { send, TestServer } from "../support/TestServer.js"

/** Every path the specification names, in OpenAPI form. */
const specPaths = [
  ["post", "/api/v1/tools"],
  ["post", "/api/v1/agents/from-script"],
  ["post", "/api/v1/agents/{agent_id}/improvements/{improvement_id}/accept"],
  ["post", "/api/v1/agents/{agent_id}/improvements/{improvement_id}/dismiss"],
  ["post", "/api/v1/agents/{agent_id}/calls"],
  ["post", "/api/v1/triggers/{trigger_id}/calls"],
  ["post", "/api/v1/agents/{agent_id}/conversations"],
  ["get", "/api/v1/agents/{agent_id}/conversations"],
  ["get", "/api/v1/integrations/oauth/providers"],
  ["put", "/api/v1/integrations/{connection_id}"],
  ["get", "/api/v1/knowledge-base/documents/{document_id}"],
  ["post", "/api/v1/phone-numbers/polish/request"],
  ["get", "/api/v1/phone-numbers/polish/quote"],
  ["get", "/api/v1/phone-numbers/{phone_number_id}/release-quote"],
  ["get", "/api/v1/public-docs"],
  ["get", "/api/v1/public-openapi.json"],
  ["post", "/api/v1/workflow/{workflow_id}/calls"],
  ["get", "/api/v1/organizations/usage/current-period"],
  ["get", "/api/v1/usage"],
  ["get", "/api/v1/campaigns/{campaign_id}/report"],
  // the console's additions (api-contract.md, "Console and organization keys")
  ["get", "/api/v1/organization"],
  ["get", "/api/v1/runs"],
  ["post", "/api/v1/campaigns/{campaign_id}/contacts/preflight"],
  ["get", "/api/v1/api-keys"],
  ["post", "/api/v1/api-keys"],
  ["delete", "/api/v1/api-keys/{api_key_id}"]
] as const

type Operation = {
  summary?: string
  description?: string
  responses: Record<string, unknown>
  security?: ReadonlyArray<Record<string, unknown>>
}

const fetchDocument = Effect.gen(function* () {
  const client = yield* HttpClient.HttpClient
  const response = yield* send(client, HttpClientRequest.get("/api/v1/public-openapi.json"))
  expect(response.status).toBe(200)
  return response.body as {
    paths: Record<string, Record<string, Operation>>
    components: any
    openapi: string
  }
})

describe("OpenAPI document", () => {
  it.effect("is a valid OpenAPI 3.1 document by the official schema", () =>
    Effect.gen(function* () {
      const document = yield* fetchDocument
      expect(document.openapi).toMatch(/^3\.1\./)
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(structuredClone(document)))
      expect(result.errors ?? []).toEqual([])
      expect(result.valid).toBe(true)
    }).pipe(Effect.provide(TestServer))
  )

  it.effect("lists every path of the specification", () =>
    Effect.gen(function* () {
      const document = yield* fetchDocument
      const served = new Set(
        Object.entries(document.paths).flatMap(([path, item]) =>
          Object.keys(item).map((method) => `${method} ${path}`)
        )
      )
      // The docs routes are served beside the API rather than described by it.
      const documented = specPaths.filter(([, path]) => !path.startsWith("/api/v1/public-"))
      expect(documented.map(([m, p]) => `${m} ${p}`).filter((op) => !served.has(op))).toEqual([])
    }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "gives every operation a summary and a description, documents 422 (never 400), and the X-API-Key scheme",
    () =>
      Effect.gen(function* () {
        const document = yield* fetchDocument
        const operations = Object.entries(document.paths).flatMap(([path, item]) =>
          Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, operation }))
        )
        expect(operations.length).toBeGreaterThan(10)
        for (const { name, operation } of operations) {
          expect(operation.summary, name).toBeTruthy()
          expect(operation.description, name).toBeTruthy()
          expect(Object.keys(operation.responses), name).not.toContain("400")
        }
        expect(document.paths["/api/v1/agents/from-script"]?.post?.responses["422"]).toBeDefined()
        expect(document.components.securitySchemes.apiKey).toMatchObject({
          type: "apiKey",
          in: "header",
          name: "X-API-Key"
        })
        expect(document.paths["/api/v1/agents"]?.get?.security).toEqual([{ apiKey: [] }])
      }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "describes the agent version and tool-call endpoints of the runtime, and PATCH's definition fields",
    () =>
      Effect.gen(function* () {
        const document = yield* fetchDocument
        const schema = (ref: { $ref?: string } | undefined): any =>
          ref?.$ref === undefined ? ref : document.components.schemas[ref.$ref.split("/").pop()!]
        const agent = document.paths["/runtime/v1/runs/{run_id}/agent"]?.get as any
        expect(agent?.summary).toBeTruthy()
        expect(
          Object.keys(schema(agent?.responses["200"]?.content?.["application/json"]?.schema).properties)
        ).toEqual(expect.arrayContaining(["system_prompt", "first_message", "tools", "transfer_numbers"]))
        const call = document.paths["/runtime/v1/runs/{run_id}/tool-calls"]?.post as any
        expect(
          Object.keys(schema(call?.requestBody?.content?.["application/json"]?.schema).properties)
        ).toEqual(["tool_uuid", "arguments"])
        expect(
          Object.keys(schema(call?.responses["200"]?.content?.["application/json"]?.schema).properties)
        ).toEqual(
          expect.arrayContaining(["ok", "status_code", "duration_ms", "response", "message", "error"])
        )
        expect(Object.keys(call.responses)).toEqual(expect.arrayContaining(["404", "409", "422"]))
        const patch = document.paths["/api/v1/agents/{agent_id}"]?.patch as any
        expect(
          Object.keys(schema(patch?.requestBody?.content?.["application/json"]?.schema).properties)
        ).toEqual(expect.arrayContaining(["system_prompt", "first_message", "tools", "transfer_numbers"]))
        expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(["404", "409", "422"]))
      }).pipe(Effect.provide(TestServer))
  )

  it.effect(
    "serves the interactive reference with everything inlined (it works with no internet access)",
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const page = yield* send(client, HttpClientRequest.get("/api/v1/public-docs"))
        expect(page.status).toBe(200)
        expect(page.headers["content-type"]).toContain("text/html")
        // no script or stylesheet is loaded from another origin
        expect(page.text).not.toMatch(/<script[^>]+src=["']https?:/i)
        expect(page.text).not.toMatch(/<link[^>]+href=["']https?:/i)
        expect(page.text.length).toBeGreaterThan(100_000)
      }).pipe(Effect.provide(TestServer))
  )
  it.effect("the page and /public-openapi.json carry the same document", () =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const page = yield* send(client, HttpClientRequest.get("/api/v1/public-docs"))
      const embedded = /<script id="api-reference" type="application\/json">\s*([\s\S]*?)\s*<\/script>/.exec(
        page.text
      )
      const document = yield* fetchDocument
      expect(JSON.parse(embedded![1]!)).toEqual(document)
      // Scalar's own script (read from @effect/platform's copy on first request), configured for html
      expect(page.text).toContain("@scalar/api-reference")
      expect(page.text).toContain('JSON.stringify({"_integration":"html"})')
      const again = yield* send(client, HttpClientRequest.get("/api/v1/public-docs"))
      expect(again.text).toBe(page.text)
    }).pipe(Effect.provide(TestServer))
  )
})
