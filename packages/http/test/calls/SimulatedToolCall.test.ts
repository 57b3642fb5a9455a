import { afterAll, describe, expect, it } from "@effect/vitest"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { removeDataDirectories, send, start, stop } from "../support/ServerProcesses.js"

/**
 * A simulated call exercises the agent's HTTP API tools end to end on the bundled server (`npm start`):
 * the simulated caller asks for the tool by its trigger phrase, the tool runs through the guarded
 * outbound client (the receiver's loopback address allowed by `OUTBOUND_ALLOW_HOSTS`), and the call is
 * kept in the run's logs until the run is deleted.
 */

/** A number inside calling hours on a server started with `CallingClock.env()`. */
const callable = CallingClock.inside

interface Received {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** A receiver on 127.0.0.1 that keeps every request it gets and answers a small JSON order. */
const receiver = () =>
  new Promise<{ readonly port: number; readonly requests: Array<Received>; readonly close: () => void }>(
    (resolve) => {
      const requests: Array<Received> = []
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          requests.push({
            method: request.method ?? "",
            url: request.url ?? "",
            headers: request.headers,
            body
          })
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ order: { status: "shipped", items: [{ name: "Apples" }] } }))
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          requests,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })
      )
    }
  )

const secret = "tool-secret-0123456789abcdef"

describe("a simulated call on the bundled server uses the agent's HTTP API tool", () => {
  afterAll(removeDataDirectories)

  it("calls the receiver exactly once, shows the call in the run's logs, and erases it with the run", async () => {
    const local = await receiver()
    const key = `vap_${"T".repeat(40)}`
    const server = await start({
      BOOTSTRAP_API_KEY: key,
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      SIM_CALL_SECONDS: "1",
      ...CallingClock.env()
    })
    try {
      const auth = { apiKey: key }
      const tool = await send(server.port, "POST", "/api/v1/tools", auth, {
        name: "Order status",
        definition: {
          type: "http_api",
          config: {
            method: "POST",
            url: `http://127.0.0.1:${local.port}/orders/{{initial_context.shop}}`,
            headers: { "X-Api-Token": secret },
            parameters: [{ name: "order_id", type: "string", description: "The order" }],
            trigger_phrases: ["check my order", "where is my parcel"],
            wait_message: "Let me look that up.",
            response_fields: ["order.status", "order.items.0.name"]
          }
        }
      })
      expect(tool.status).toBe(200)
      const agent = await send(server.port, "POST", "/api/v1/agents/from-script", auth, {
        agent: { greeting: "Hello" }
      })
      expect(agent.status).toBe(200)
      const patched = await send(server.port, "PATCH", `/api/v1/agents/${agent.json.public_id}`, auth, {
        tools: [tool.json.tool_uuid]
      })
      expect(patched.status).toBe(200)

      const placed = await send(server.port, "POST", `/api/v1/agents/${agent.json.public_id}/calls`, auth, {
        phone_number: callable,
        initial_context: { shop: "north", order_id: "A-17" }
      })
      expect(placed.status, JSON.stringify(placed.json)).toBe(200)
      const runPath = `/api/v1/agents/${agent.json.public_id}/conversations/${placed.json.workflow_run_id}`
      let run = (await send(server.port, "GET", runPath, auth)).json
      for (let i = 0; i < 150 && ["queued", "ringing", "in_progress"].includes(run.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        run = (await send(server.port, "GET", runPath, auth)).json
      }
      expect(run.status).toBe("completed")

      expect(local.requests).toHaveLength(1)
      expect(local.requests[0]).toMatchObject({ method: "POST", url: "/orders/north" })
      expect(JSON.parse(local.requests[0]!.body)).toEqual({ order_id: "A-17" })
      expect(local.requests[0]!.headers["x-api-token"]).toBe(secret)

      const toolCalls = (run.logs as Array<any>).filter((entry) => entry.tool_call !== undefined)
      expect(toolCalls).toHaveLength(1)
      expect(toolCalls[0].tool_call).toMatchObject({
        tool_uuid: tool.json.tool_uuid,
        tool_type: "http_api",
        arguments: { order_id: "A-17" },
        outcome: "ok",
        status_code: 200,
        response: JSON.stringify({ "order.status": "shipped", "order.items.0.name": "Apples" })
      })
      expect(JSON.stringify(run)).not.toContain(secret)
      // the caller asked for the tool, and the agent answered with its wait message
      const transcript = await send(server.port, "GET", `${runPath}/transcript`, auth)
      expect(JSON.stringify(transcript.json)).toContain("check my order")
      expect(JSON.stringify(transcript.json)).toContain("Let me look that up.")

      expect((await send(server.port, "DELETE", runPath, auth)).status).toBe(204)
      expect((await send(server.port, "GET", runPath, auth)).status).toBe(404)
      expect(local.requests).toHaveLength(1)
    } finally {
      await stop(server)
      local.close()
    }
  }, 120_000)
})
