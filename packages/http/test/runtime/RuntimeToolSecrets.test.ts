import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import type { ServerResponse } from "node:http"
import { answerJson, receiver } from "../support/Receiver.js"
import {
  agentWithRun,
  type Body,
  created,
  runtime,
  secret,
  shopKey,
  tool
} from "../support/RuntimeToolFixtures.js"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

const token = "tok-0a1b2c3d4e5f6789"
const apiKey = "key-9z8y7x6w5v4u"
const tenantKey = "tenant-5f4e3d2c1b0a"

/** The tool calls logged on a run, as its owner reads them. */
const loggedCalls = (client: Parameters<typeof send>[0], agentId: string, runId: number) =>
  Effect.map(
    send(client, HttpClientRequest.get(`/api/v1/agents/${agentId}/conversations/${runId}`)),
    (response) => (created(response).logs as Array<Body>).filter((entry) => entry.tool_call !== undefined)
  )

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("the secrets of the runtime's tool calls, %s storage", (_, server) => {
  it.scopedLive(
    "what fills a secret header (arguments, initial context) is scrubbed from the answer and the log, and such arguments are masked",
    () =>
      Effect.gen(function* () {
        // a receiver that echoes everything it got
        const local = yield* receiver((request, response) =>
          answerJson(response, 200, { url: request.url, headers: request.headers, body: request.body })
        )
        const { apiKey: organizationKey } = yield* organization()
        const client = yield* rawClient(organizationKey)
        const lookup = yield* tool(client, "Lookup", {
          type: "http_api",
          config: {
            method: "POST",
            url: `${local.origin}/orders`,
            headers: {
              Authorization: "Bearer {{token}}",
              "X-Api-Key": "{{key}}",
              "X-Tenant-Secret": "t={{initial_context.tenant}}",
              "X-Plain": "{{order}}"
            },
            parameters: [
              { name: "order", type: "string", description: "The order" },
              { name: "token", type: "string", description: "A token" },
              { name: "key", type: "string", description: "Read only by a secret header" }
            ]
          }
        })
        const { agent, runId } = yield* agentWithRun(client, [lookup], [], { tenant: tenantKey })
        const answered = yield* runtime(client).post(`/runtime/v1/runs/${runId}/tool-calls`, {
          tool_uuid: lookup,
          arguments: { order: "A-1", token, key: apiKey }
        })
        expect(answered.status, answered.text).toBe(200)
        // the receiver got them all, and echoed them
        expect(local.requests[0]!.headers).toMatchObject({
          authorization: `Bearer ${token}`,
          "x-api-key": apiKey,
          "x-tenant-secret": `t=${tenantKey}`
        })
        const echoed = (answered.body as Body).response
        expect(echoed.headers["x-plain"]).toBe("A-1")
        const logged = yield* loggedCalls(client, agent.public_id, runId)
        expect(logged).toHaveLength(1)
        expect(logged[0]!.tool_call.arguments).toEqual({ order: "A-1", token: "****", key: "****" })
        for (const text of [answered.text, JSON.stringify(logged)]) {
          for (const shown of [token, apiKey, tenantKey]) expect(text).not.toContain(shown)
        }
      }).pipe(Effect.provide(server))
  )

  it.scopedLive(
    "the log scrubs the secret the call used, even when the credential is gone by the time the call is logged",
    () =>
      Effect.gen(function* () {
        const held: Array<ServerResponse> = []
        const local = yield* receiver((_request, response) => {
          held.push(response)
        })
        const { apiKey: organizationKey } = yield* organization()
        const client = yield* rawClient(organizationKey)
        const credential = yield* shopKey(client)
        const lookup = yield* tool(client, "Lookup", {
          type: "http_api",
          config: {
            method: "GET",
            url: `${local.origin}/orders`,
            credential_uuid: credential,
            parameters: [{ name: "note", type: "string", description: "What the caller said" }]
          }
        })
        const { agent, runId } = yield* agentWithRun(client, [lookup], [])
        const call = yield* Effect.fork(
          runtime(client).post(`/runtime/v1/runs/${runId}/tool-calls`, {
            tool_uuid: lookup,
            // the model repeats the key it overheard
            arguments: { note: secret }
          })
        )
        while (held.length === 0) yield* Effect.sleep("10 millis")
        // while the receiver holds the request, the tool is archived and its credential deleted
        created(yield* send(client, HttpClientRequest.del(`/api/v1/tools/${lookup}`)))
        expect((yield* send(client, HttpClientRequest.del(`/api/v1/credentials/${credential}`))).status).toBe(
          204
        )
        answerJson(held[0]!, 200, { echo: local.requests[0]!.headers["x-shop-key"] })
        const answered = yield* Fiber.join(call)
        expect(answered.status, answered.text).toBe(200)
        expect((answered.body as Body).response).toEqual({ echo: "****" })
        const logged = yield* loggedCalls(client, agent.public_id, runId)
        expect(logged).toHaveLength(1)
        expect(logged[0]!.tool_call.arguments).toEqual({ note: "****" })
        expect(JSON.parse(logged[0]!.tool_call.response)).toEqual({ echo: "****" })
        expect(JSON.stringify(logged)).not.toContain(secret)
      }).pipe(Effect.provide(server))
  )
})
