import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "./support/TestServer.js"

type Parameter = { name: string; in: "path" | "query" | "header" }
type Operation = { method: string; path: string; parameters: ReadonlyArray<Parameter> }

// Routes whose answers are not JSON by design.
const notJson = new Set(["/api/v1/public-docs", "/api/v1/public-openapi.json"])

const operationsOf = (document: {
  paths: Record<string, Record<string, { parameters?: Array<Parameter> }>>
}) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]): Operation => ({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? []
      }))
  )

const segment = FastCheck.oneof(
  FastCheck.integer({ min: -5, max: 1_000_000 }).map(String),
  FastCheck.constantFrom(
    "0",
    "1",
    "99999999999999999999",
    "agent_AAAAAAAAAAAAAAAAAAAA",
    "%00",
    "\u0000",
    "..",
    "null",
    "+48500000486"
  ),
  FastCheck.string({ minLength: 1, maxLength: 30 })
)

const queryValue = FastCheck.oneof(
  FastCheck.constantFrom(
    "",
    "0",
    "-1",
    "1",
    "101",
    "abc",
    "2026-13-45",
    "2026-01-01T00:00:00Z",
    "true",
    "mobile"
  ),
  FastCheck.string({ maxLength: 20 })
)

const deepObject = (levels: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

const body = FastCheck.oneof(
  FastCheck.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  FastCheck.string({ maxLength: 200 }),
  FastCheck.constantFrom(
    "",
    "{",
    "[]",
    "null",
    '{"name": 5}',
    '{"agent": {"greeting": 42}}',
    '{"phone_number": "+48500000486"}',
    '{"name": "a\\u0000b", "agent": {"greeting": "\\ud800"}}'
  ),
  // deep nesting, at the top and inside free-form fields
  FastCheck.constantFrom(
    "[".repeat(20_000) + "]".repeat(20_000),
    JSON.stringify({ initial_context: deepObject(50), config: deepObject(50), headers: deepObject(50) }),
    JSON.stringify({ mode: "chat", initial_context: deepObject(33) })
  )
)

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("robustness, %s storage", (_, server) => {
  it.effect(
    "no operation answers 5xx or a non-JSON error to random and malformed input",
    () =>
      Effect.gen(function* () {
        const plain = yield* HttpClient.HttpClient
        const document = (yield* send(plain, HttpClientRequest.get("/api/v1/public-openapi.json")))
          .body as Parameters<typeof operationsOf>[0]
        const operations = operationsOf(document).filter((op) => !notJson.has(op.path))
        expect(operations.length).toBeGreaterThan(10)
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)

        const input = FastCheck.record({
          segments: FastCheck.array(segment, { minLength: 4, maxLength: 4 }),
          query: FastCheck.dictionary(
            FastCheck.constantFrom(
              "page",
              "limit",
              "status",
              "number_type",
              "phone_number_id",
              "expires_in",
              "from",
              "to",
              "x"
            ),
            queryValue,
            { maxKeys: 3 }
          ),
          body,
          contentType: FastCheck.constantFrom(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded"
          )
        })
        // Every operation gets its own sample, so none is left out by chance.
        const cases = operations.flatMap((operation, index) =>
          FastCheck.sample(input, { numRuns: 15, seed: 20261122 + index }).map((c) => ({ ...c, operation }))
        )
        const failures: Array<string> = []
        for (const c of cases) {
          let i = 0
          const path = c.operation.path.replace(/\{[^}]+\}/g, () =>
            encodeURIComponent(c.segments[i++] ?? "x")
          )
          const search = new URLSearchParams(c.query).toString()
          const url = search === "" ? path : `${path}?${search}`
          let request = HttpClientRequest.make(c.operation.method as "GET")(url)
          if (c.operation.method !== "GET")
            request = HttpClientRequest.bodyText(request, c.body, c.contentType)
          const response = yield* send(client, request)
          const described = `${c.operation.method} ${url} ${JSON.stringify(c.body).slice(0, 80)} → ${response.status} ${response.text.slice(0, 120)}`
          if (response.status >= 500) failures.push(described)
          else if (response.status >= 400) {
            const detail = (response.body as { detail?: unknown } | undefined)?.detail
            if (typeof response.body !== "object" || detail === undefined)
              failures.push(`non-JSON error: ${described}`)
          }
        }
        expect(failures).toEqual([])
      }).pipe(Effect.provide(server)),
    { timeout: 120_000 }
  )
})
