/** POST /tools/{tool_uuid}/test: deadlines, answer caps, picked fields, refused destinations, transfers. */
import { describe, expect, it } from "@effect/vitest"
import {
  AllowList,
  HostResolver,
  InMemory,
  IpAddress,
  OutboundPolicy,
  Tools
} from "@voice-agent-platform/core"
import { Effect, Either, Layer, Option } from "effect"
import * as NodeOutboundHttp from "../../src/outbound/NodeOutboundHttp.js"
import { answerJson, receiver } from "../support/Receiver.js"
import { json, organization, rawClient, send, serverOver, TestServer } from "../support/TestServer.js"
import { type Body, createTool, testTool, httpApi } from "../support/ToolTestFixtures.js"

describe("POST /tools/{tool_uuid}/test through a real server and a local receiver", () => {
  it.scopedLive("timeout_ms is a deadline that fires against a receiver that never answers", () =>
    Effect.gen(function* () {
      const local = yield* receiver(() => {
        // never answers
      })
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const toolUuid = yield* createTool(
        client,
        httpApi({
          method: "GET",
          url: `${local.origin}/slow`,
          timeout_ms: 1000,
          error_message: "One moment failed."
        })
      )
      const started = Date.now()
      const answer = yield* testTool(client, toolUuid)
      const elapsed = Date.now() - started
      expect(answer.body).toEqual({
        ok: false,
        status_code: null,
        duration_ms: expect.any(Number),
        response: null,
        message: "One moment failed.",
        error: { type: "timeout", detail: "no answer within 1000 ms" }
      })
      expect(elapsed).toBeGreaterThanOrEqual(950)
      // generous, for a loaded machine: the 1 s deadline cut it, not the 5 s default
      expect(elapsed).toBeLessThan(4_000)
      expect(local.requests).toHaveLength(1)
    }).pipe(Effect.provide(TestServer))
  )

  it.scopedLive(
    "reads at most 256 KiB: a 2 MB answer is cut at the cap and reported as invalid_response",
    () =>
      Effect.gen(function* () {
        const big = JSON.stringify({ data: "x".repeat(2 * 1024 * 1024) })
        const local = yield* receiver((_, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end(big)
        })
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const toolUuid = yield* createTool(client, httpApi({ method: "GET", url: `${local.origin}/big` }))
        const answer = yield* testTool(client, toolUuid)
        expect(answer.body).toMatchObject({
          ok: false,
          status_code: 200,
          response: null,
          error: { type: "invalid_response", detail: expect.stringContaining("262144 bytes") }
        })
        expect(answer.text.length).toBeLessThan(1000)
      }).pipe(Effect.provide(TestServer))
  )

  it.scopedLive(
    "response_fields pick nested paths and array indices; non-JSON and 500 answers are failures",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((request, response) => {
          if (request.url === "/order") {
            answerJson(response, 200, {
              order: { id: 7, items: [{ name: "pizza" }, { name: "cola" }] },
              secret: 1
            })
          } else if (request.url === "/text") {
            response.writeHead(200, { "content-type": "text/plain" })
            response.end("plain words")
          } else {
            answerJson(response, 500, { error: "boom" })
          }
        })
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const picked = yield* createTool(
          client,
          httpApi({
            method: "GET",
            url: `${local.origin}/order`,
            response_fields: ["order.id", "order.items.1.name", "order.items.9.name"]
          })
        )
        expect((yield* testTool(client, picked)).body).toMatchObject({
          ok: true,
          response: { "order.id": 7, "order.items.1.name": "cola", "order.items.9.name": null }
        })
        const whole = yield* createTool(client, httpApi({ method: "GET", url: `${local.origin}/order` }))
        expect((yield* testTool(client, whole)).body).toMatchObject({
          ok: true,
          response: { order: { id: 7, items: [{ name: "pizza" }, { name: "cola" }] }, secret: 1 }
        })
        const text = yield* createTool(client, httpApi({ method: "GET", url: `${local.origin}/text` }))
        expect((yield* testTool(client, text)).body).toMatchObject({
          ok: false,
          status_code: 200,
          response: "plain words",
          error: { type: "invalid_response", detail: "the response is not JSON" }
        })
        const failing = yield* createTool(
          client,
          httpApi({ method: "POST", url: `${local.origin}/fail`, error_message: "The system is down." })
        )
        expect((yield* testTool(client, failing)).body).toMatchObject({
          ok: false,
          status_code: 500,
          response: { error: "boom" },
          message: "The system is down.",
          error: { type: "http_status", detail: "the receiver answered with status 500" }
        })
      }).pipe(Effect.provide(TestServer))
  )

  it.scopedLive(
    "without the allowance, 169.254.169.254, [::1] and a name resolving to 127.0.0.1 are destination_not_allowed, with no connection made",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((_, response) => answerJson(response, 200, { reached: true }))
        const resolver = HostResolver.layerFixed({
          "receiver.test": [Option.getOrThrow(IpAddress.parseHost("127.0.0.1"))]
        })
        const guarded = serverOver(
          InMemory.layer,
          OutboundPolicy.layerDefault,
          NodeOutboundHttp.layerWith.pipe(Layer.provide(resolver))
        )
        const urls = [
          "http://169.254.169.254/latest/meta-data/",
          `http://[::1]:${local.port}/`,
          `http://receiver.test:${local.port}/`
        ]
        yield* Effect.gen(function* () {
          const { organization: org, apiKey } = yield* organization()
          const client = yield* rawClient(apiKey)
          const tools = yield* Tools.Tools
          for (const url of urls) {
            // Stored directly: over HTTP the literal addresses are refused at create already (422).
            const tool = yield* tools.create(org.id, {
              name: "Internal",
              icon: null,
              icon_color: null,
              definition: {
                schema_version: 1,
                type: "http_api",
                config: { method: "GET", url, timeout_ms: 5000 }
              }
            })
            const answer = yield* testTool(client, tool.tool_uuid)
            expect(answer.body, url).toMatchObject({
              ok: false,
              status_code: null,
              error: { type: "destination_not_allowed" }
            })
            expect(answer.text).not.toContain("127.0.0.1")
          }
        }).pipe(Effect.provide(guarded))
        expect(local.connections).toHaveLength(0)

        // The same name, allowed by the operator, reaches the receiver: the refusal above was the policy's.
        const allowing = serverOver(
          InMemory.layer,
          OutboundPolicy.layer(Either.getOrThrow(AllowList.parse("receiver.test"))),
          NodeOutboundHttp.layerWith.pipe(Layer.provide(resolver))
        )
        yield* Effect.gen(function* () {
          const { apiKey } = yield* organization()
          const client = yield* rawClient(apiKey)
          const toolUuid = yield* createTool(client, httpApi({ method: "GET", url: urls[2] }))
          expect((yield* testTool(client, toolUuid)).body).toMatchObject({
            ok: true,
            response: { reached: true }
          })
        }).pipe(Effect.provide(allowing))
        expect(local.requests).toHaveLength(1)
      })
  )

  it.scopedLive(
    "transfers resolve against the named agent's transfer_numbers; end_call answers its message",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const agent = (yield* send(
          client,
          json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi" } })
        )).body as Body
        const patched = yield* send(
          client,
          json("PATCH", `/api/v1/agents/${agent.public_id}`, {
            workflow_configurations: { transfer_numbers: ["+48500000486"] }
          })
        )
        expect(patched.status, patched.text).toBe(200)
        const withOwn = yield* createTool(client, {
          type: "transfer",
          config: { destination_number: "+48221234567", message: "Connecting you, {{initial_context.name}}." }
        })
        const bare = yield* createTool(client, { type: "transfer", config: {} })
        const transfer = (toolUuid: string, body: unknown) =>
          Effect.map(testTool(client, toolUuid, body), (answer) => answer.body as Body)

        expect(
          yield* transfer(withOwn, {
            arguments: { destination_number: "+48 500 000 486" },
            initial_context: { name: "Anna" },
            agent_id: agent.public_id
          })
        ).toMatchObject({
          ok: true,
          status_code: null,
          response: { action: "transfer", destination_number: "+48500000486" },
          message: "Connecting you, Anna.",
          error: null
        })
        // Without the agent, or with a number the agent does not have, the tool's own number.
        for (const body of [
          { arguments: { destination_number: "+48500000486" } },
          { arguments: { destination_number: "+48601234567" }, agent_id: agent.public_id }
        ]) {
          expect((yield* transfer(withOwn, body)).response).toEqual({
            action: "transfer",
            destination_number: "+48221234567"
          })
        }
        expect(
          yield* transfer(bare, {
            arguments: { destination_number: "+48601234567" },
            agent_id: agent.public_id
          })
        ).toMatchObject({ ok: false, response: null, error: { type: "no_transfer_destination" } })
        expect((yield* testTool(client, withOwn, { agent_id: "agent_unknown" })).status).toBe(404)

        const endCall = yield* createTool(client, {
          type: "end_call",
          config: { messageType: "custom", customMessage: "Goodbye {{initial_context.name}}" }
        })
        expect(yield* transfer(endCall, { initial_context: { name: "Jan" } })).toMatchObject({
          ok: true,
          response: { action: "end_call", message: "Goodbye Jan" },
          message: "Goodbye Jan"
        })
      }).pipe(Effect.provide(TestServer))
  )
})
