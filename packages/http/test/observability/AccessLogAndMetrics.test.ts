import { afterAll, describe, expect, it } from "@effect/vitest"
import { call, removeDataDirectories, start, stop } from "../support/ServerProcesses.js"

const apiKey = `vap_${"L".repeat(40)}`
const metricsToken = "the-metrics-token-0123456789"

/** The JSON lines a server wrote (its stdout is a pipe, so its logs are JSON). */
const jsonLines = (output: string): Array<Record<string, unknown>> =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

/** Waits (at most 10 s) for the access log line of the request with this id. */
const accessLine = async (output: () => string, requestId: string) => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const line = jsonLines(output()).find(
      (entry) => entry["message"] === "request" && entry["request_id"] === requestId
    )
    if (line !== undefined) return line
    if (Date.now() > deadline) throw new Error(`no access log line for ${requestId} in:\n${output()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("the access log and GET /metrics (bundled server)", () => {
  afterAll(removeDataDirectories)

  it("logs each request as one JSON line without secrets, counts it, and keeps the metrics behind METRICS_TOKEN", async () => {
    const server = await start({ BOOTSTRAP_API_KEY: apiKey, METRICS_TOKEN: metricsToken })
    try {
      const listed = await call(server.port, "GET", "/api/v1/agents?page=1&signature=link-signature-secret", {
        "x-api-key": apiKey,
        "x-request-id": "access-log-test-0001"
      })
      expect(listed.status).toBe(200)
      expect(listed.headers["x-request-id"]).toBe("access-log-test-0001")
      const line = await accessLine(server.output, "access-log-test-0001")
      expect(line).toMatchObject({
        level: "INFO",
        method: "GET",
        route: "/api/v1/agents",
        status: 200
      })
      expect(typeof line["time"]).toBe("string")
      expect(typeof line["duration_ms"]).toBe("number")
      expect(typeof line["organization_id"]).toBe("number")

      // a refused key and a path with an id: the route template, no organization, the key nowhere
      const refused = await call(server.port, "GET", "/api/v1/agents/agent_0123456789", {
        "x-api-key": `vap_${"X".repeat(40)}`,
        "x-request-id": "access-log-test-0002"
      })
      expect(refused.status).toBe(401)
      const refusedLine = await accessLine(server.output, "access-log-test-0002")
      expect(refusedLine).toMatchObject({ route: "/api/v1/agents/{agent_id}", status: 401 })
      expect(refusedLine["organization_id"]).toBeUndefined()
      expect(server.output()).not.toContain(apiKey)
      expect(server.output()).not.toContain("X".repeat(40))
      expect(server.output()).not.toContain("link-signature-secret")

      // the metrics: refused without the token (or with another), served with it
      expect((await call(server.port, "GET", "/metrics")).status).toBe(401)
      expect(
        (await call(server.port, "GET", "/metrics", { authorization: "Bearer not-the-token" })).status
      ).toBe(401)
      const metrics = await call(server.port, "GET", "/metrics", { authorization: `Bearer ${metricsToken}` })
      expect(metrics.status).toBe(200)
      expect(metrics.headers["content-type"]).toContain("text/plain")
      expect(metrics.body).toContain("# TYPE vap_http_requests_total counter")
      expect(metrics.body).toMatch(
        /^vap_http_requests_total\{route="\/api\/v1\/agents",method="GET",status="200"\} 1$/m
      )
      expect(metrics.body).toMatch(
        /^vap_http_requests_total\{route="\/api\/v1\/agents\/\{agent_id\}",method="GET",status="401"\} 1$/m
      )
      expect(metrics.body).toMatch(
        /^vap_http_requests_total\{route="\/metrics",method="GET",status="401"\} 2$/m
      )
      expect(metrics.body).toContain("# TYPE vap_http_request_duration_seconds histogram")
      expect(metrics.body).toMatch(
        /^vap_http_request_duration_seconds_bucket\{route="\/api\/v1\/agents",method="GET",le="\+Inf"\} 1$/m
      )
      expect(metrics.body).toMatch(/^vap_channels_in_use 0$/m)
      expect(metrics.body).toMatch(/^vap_webhook_backlog 0$/m)
      // no raw path, no query, no organization among the labels
      expect(metrics.body).not.toContain("agent_0123456789")
      expect(metrics.body).not.toContain("signature")
      expect(metrics.body).not.toMatch(/\{[^}\n]*organization/)
    } finally {
      await stop(server)
    }
  }, 90_000)

  it("serves the metrics openly without METRICS_TOKEN, and writes readable lines with LOG_FORMAT=text", async () => {
    const server = await start({ BOOTSTRAP_API_KEY: apiKey, LOG_FORMAT: "text" })
    try {
      const metrics = await call(server.port, "GET", "/metrics", { "x-request-id": "access-log-test-0003" })
      expect(metrics.status).toBe(200)
      const deadline = Date.now() + 10_000
      while (!server.output().includes("request_id=access-log-test-0003")) {
        if (Date.now() > deadline) throw new Error(`no text access log line in:\n${server.output()}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      const line = server
        .output()
        .split("\n")
        .find((text) => text.includes("request_id=access-log-test-0003"))!
      expect(line).toMatch(
        /^\S+Z INFO  request request_id=access-log-test-0003 method=GET route=\/metrics status=200 duration_ms=/
      )
    } finally {
      await stop(server)
    }
  }, 90_000)
})
