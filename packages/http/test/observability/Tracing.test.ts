import { afterAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { TestDatabase } from "@voice-agent-platform/pg/testing"
import * as OtlpReceiver from "../support/OtlpReceiver.js"
import type { ReceivedSpan } from "../support/OtlpReceiver.js"
import { call, removeDataDirectories, send, start, stop } from "../support/ServerProcesses.js"

/** A number inside calling hours on a server started with `CallingClock.env()`. */
const callable = CallingClock.inside

const apiKey = `vap_${"T".repeat(40)}`
const reachable = await TestDatabase.serverReachable()
if (!reachable) TestDatabase.warnUnreachable("the tracing test on PostgreSQL")
const route = "/api/v1/agents/{agent_id}/calls"

/** Whether `span` has `ancestor` above it (through any number of parents) among `spans`. */
const descendsFrom = (spans: ReadonlyArray<ReceivedSpan>, span: ReceivedSpan, ancestor: ReceivedSpan) => {
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  let current: ReceivedSpan | undefined = span
  for (let depth = 0; current !== undefined && depth < 64; depth++) {
    if (current.parentSpanId === ancestor.spanId) return true
    current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId)
  }
  return false
}

describe("tracing over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  afterAll(removeDataDirectories)

  /** Places one call on a server over this storage and finds the call's trace at the receiver. */
  const traceOneCall = async (storage: Record<string, string>) => {
    const receiver = await OtlpReceiver.start()
    const server = await start({
      ...storage,
      BOOTSTRAP_API_KEY: apiKey,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: "vap-tracing-test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      // the call stays live for the whole test: its channel stays held
      SIM_CALL_SECONDS: "600",
      ...CallingClock.env()
    })
    try {
      const auth = { apiKey }
      const agent = await send(server.port, "POST", "/api/v1/agents/from-script", auth, {
        agent: { greeting: "Hello" }
      })
      expect(agent.status).toBe(200)
      // a link-like query string (signature) on a matched route and on no route at all
      const listed = await call(server.port, "GET", "/api/v1/agents?page=1&signature=span-link-signature", {
        "x-api-key": apiKey,
        "x-request-id": "tracing-test-query-0001"
      })
      expect(listed.status).toBe(200)
      expect(
        (await call(server.port, "GET", "/api/v1/no-such-route?signature=unmatched-link-signature")).status
      ).toBe(404)
      const listedSpan = await receiver.waitFor(
        (span) => span.attributes["request_id"] === "tracing-test-query-0001"
      )
      expect(listedSpan.attributes["url.path"]).toBe("/api/v1/agents")

      const requestId = "tracing-test-call-0001"
      const placed = await fetch(
        `http://127.0.0.1:${server.port}/api/v1/agents/${agent.json.public_id}/calls`,
        {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json", "x-request-id": requestId },
          body: JSON.stringify({ phone_number: callable })
        }
      )
      expect(placed.status, await placed.clone().text()).toBe(200)

      // the call counted, its channel held (read from the database at the scrape)
      const metrics = await call(server.port, "GET", "/metrics")
      expect(metrics.body).toMatch(/^vap_calls_placed_total 1$/m)
      expect(metrics.body).toMatch(/^vap_channels_in_use 1$/m)

      const serverSpan = await receiver.waitFor(
        (span) => span.name === `POST ${route}` && span.attributes["request_id"] === requestId
      )
      expect(serverSpan.kind).toBe(2) // SERVER
      expect(serverSpan.serviceName).toBe("vap-tracing-test")
      expect(serverSpan.attributes["http.route"]).toBe(route)
      expect(serverSpan.attributes["http.request.method"]).toBe("POST")
      expect(serverSpan.attributes["http.response.status_code"]).toBe(200)
      expect(typeof serverSpan.attributes["organization_id"]).toBe("number")

      const inTrace = () => receiver.spans.filter((span) => span.traceId === serverSpan.traceId)
      const placement = await receiver.waitFor(
        (span) => span.traceId === serverSpan.traceId && span.name === "CallPlacement.place"
      )
      expect(descendsFrom(inTrace(), placement, serverSpan)).toBe(true)
      // the statements arrive in the same or a later batch than the placement
      await receiver.waitFor(
        (span) => span.name === "sql.execute" && descendsFrom(inTrace(), span, placement)
      )
      const statements = inTrace().filter(
        (span) => span.name === "sql.execute" && descendsFrom(inTrace(), span, placement)
      )
      expect(statements.length).toBeGreaterThan(0)
      for (const statement of statements) {
        expect(statement.traceId).toBe(serverSpan.traceId)
        expect(statement.attributes["db.system.name"]).toBe("postgresql")
        expect(typeof statement.attributes["db.query.text"]).toBe("string")
      }
      // bound parameters (the number called), the API key and the query never leave in an export
      const exported = receiver.bodies.join("\n")
      expect(exported).not.toContain(callable)
      expect(exported).not.toContain(apiKey)
      expect(exported).not.toContain("signature")
      // the call is also an operator's log line, with its ids
      const logged = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(logged).toContainEqual(
        expect.objectContaining({
          message: "call placed",
          level: "INFO",
          run_id: ((await placed.json()) as { workflow_run_id: number }).workflow_run_id,
          organization_id: serverSpan.attributes["organization_id"]
        })
      )
    } finally {
      await stop(server)
      await receiver.close()
    }
  }

  it(
    "exports a call's server span, its CallPlacement.place span and the SQL beneath, in one trace (embedded)",
    () => traceOneCall({}),
    90_000
  )

  it.skipIf(!reachable)(
    "does the same on PostgreSQL (DATABASE_URL)",
    async () => {
      const database = await TestDatabase.createDatabase()
      try {
        await traceOneCall({
          DATABASE_URL: TestDatabase.databaseUrl(database),
          ENCRYPTION_KEY: "the tracing test's encryption key 0123456789"
        })
      } finally {
        await TestDatabase.dropDatabase(database)
      }
    },
    90_000
  )
})
