import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as WebHandler from "../../src/embedding/WebHandler.js"
import { receiver } from "../support/Receiver.js"

/**
 * The embedding's default engine (in memory, simulated runtime) runs the agent's HTTP API tools in its
 * simulated calls, as the bundled server does, through the guarded outbound client under
 * `outboundAllowHosts`.
 */

/**
 * An International Freephone number (+800): it has no local time, so calling hours never refuse it and the
 * in-process engine (on the machine's clock) places the call at any hour the test runs.
 */
const callable = () => "+80012345678"

const adminToken = "operator-token-0123456789"

describe("the embedding's default engine", () => {
  it.live(
    "runs the agent's HTTP API tool in a simulated call, once, and keeps it in the run's logs",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((_, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ order: { status: "shipped" } }))
        })
        const web = WebHandler.make({
          adminToken: Redacted.make(adminToken),
          outboundAllowHosts: "127.0.0.1"
        })
        yield* Effect.addFinalizer(() => Effect.promise(() => web.dispose()))
        const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
          Effect.promise(async () => {
            const response = await web.handler(
              new Request(`http://embedded.test${path}`, {
                method,
                headers: {
                  ...headers,
                  ...(body === undefined ? {} : { "content-type": "application/json" })
                },
                ...(body === undefined ? {} : { body: JSON.stringify(body) })
              })
            )
            return { status: response.status, json: (await response.json()) as any }
          })

        const organization = yield* call(
          "POST",
          "/admin/v1/organizations",
          { authorization: `Bearer ${adminToken}` },
          { name: "Embedded tools" }
        )
        expect(organization.status).toBe(200)
        const auth = { "x-api-key": organization.json.api_key as string }
        const tool = yield* call("POST", "/api/v1/tools", auth, {
          name: "Order status",
          definition: {
            type: "http_api",
            config: {
              method: "GET",
              url: `${local.origin}/orders`,
              parameters: [{ name: "order_id", type: "string", description: "The order" }],
              trigger_phrases: ["check my order"]
            }
          }
        })
        expect(tool.status, JSON.stringify(tool.json)).toBe(200)
        const agent = yield* call("POST", "/api/v1/agents/from-script", auth, {
          agent: { greeting: "Hello" }
        })
        expect(agent.status).toBe(200)
        const agentPath = `/api/v1/agents/${agent.json.public_id}`
        expect((yield* call("PATCH", agentPath, auth, { tools: [tool.json.tool_uuid] })).status).toBe(200)

        const placed = yield* call("POST", `${agentPath}/calls`, auth, {
          phone_number: callable(),
          initial_context: { order_id: "A-17" }
        })
        expect(placed.status, JSON.stringify(placed.json)).toBe(200)
        const runPath = `${agentPath}/conversations/${placed.json.workflow_run_id}`
        let run = (yield* call("GET", runPath, auth)).json
        for (let i = 0; i < 200 && ["queued", "ringing", "in_progress"].includes(run.status); i++) {
          yield* Effect.sleep("100 millis")
          run = (yield* call("GET", runPath, auth)).json
        }
        expect(run.status).toBe("completed")
        expect(local.requests).toHaveLength(1)
        expect(local.requests[0]).toMatchObject({ method: "GET", url: "/orders?order_id=A-17" })
        const toolCalls = (run.logs as Array<any>).filter((entry) => entry.tool_call !== undefined)
        expect(toolCalls).toHaveLength(1)
        expect(toolCalls[0].tool_call).toMatchObject({ tool_uuid: tool.json.tool_uuid, outcome: "ok" })
      }).pipe(Effect.scoped),
    60_000
  )
})
