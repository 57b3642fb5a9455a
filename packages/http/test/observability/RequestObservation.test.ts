import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AccessLog, type AccessLogEntry } from "../../src/observability/AccessLog.js"
import { organization, rawClient, send, TestServer } from "../support/TestServer.js"

/** Every access log entry the API wrote, in order. */
const entries: Array<AccessLogEntry> = []
const server = TestServer.pipe(
  Layer.provide(Layer.succeed(AccessLog, (entry: AccessLogEntry) => Effect.sync(() => entries.push(entry))))
)

const entryOf = (requestId: string) => entries.find((entry) => entry.request_id === requestId)

describe("RequestObservation (in process)", () => {
  it.effect(
    "records route templates, the request id, the status and the organization once authenticated",
    () =>
      Effect.gen(function* () {
        const { apiKey, organization: owner } = yield* organization()
        const client = yield* rawClient(apiKey)
        const listed = yield* send(
          client,
          HttpClientRequest.get("/api/v1/agents?limit=5").pipe(
            HttpClientRequest.setHeader("x-request-id", "observed-0001")
          )
        )
        expect(listed.status).toBe(200)
        expect(entryOf("observed-0001")).toMatchObject({
          method: "GET",
          route: "/api/v1/agents",
          status: 200,
          organization_id: owner.id
        })

        const missing = yield* send(
          client,
          HttpClientRequest.get("/api/v1/agents/agent_does_not_exist/conversations").pipe(
            HttpClientRequest.setHeader("x-request-id", "observed-0002")
          )
        )
        expect(missing.status).toBe(404)
        expect(entryOf("observed-0002")).toMatchObject({
          route: "/api/v1/agents/{agent_id}/conversations",
          status: 404,
          organization_id: owner.id
        })

        // no key: a 401 without an organization; no operation: the route is `unmatched`, never the path
        const anonymous = yield* HttpClient.HttpClient
        const refused = yield* send(
          anonymous,
          HttpClientRequest.get("/api/v1/agents").pipe(
            HttpClientRequest.setHeader("x-request-id", "observed-0003")
          )
        )
        expect(refused.status).toBe(401)
        expect(entryOf("observed-0003")).toMatchObject({
          route: "/api/v1/agents",
          status: 401,
          organization_id: undefined
        })
        const nowhere = yield* send(
          anonymous,
          HttpClientRequest.get("/no/such/path/secret-looking?token=abc").pipe(
            HttpClientRequest.setHeader("x-request-id", "observed-0004")
          )
        )
        expect(nowhere.status).toBe(404)
        expect(entryOf("observed-0004")).toMatchObject({ route: "unmatched", status: 404 })

        // a caller without a usable X-Request-Id gets a fresh one, and the log has the same
        const fresh = yield* send(anonymous, HttpClientRequest.get("/health"))
        const id = fresh.headers["x-request-id"]
        expect(entryOf(id!)).toMatchObject({ route: "/health", status: 200 })
        for (const entry of entries) expect(entry.duration_ms).toBeGreaterThanOrEqual(0)
        expect(JSON.stringify(entries)).not.toContain(apiKey)
        expect(JSON.stringify(entries)).not.toContain("secret-looking")
      }).pipe(Effect.provide(server))
  )
})
