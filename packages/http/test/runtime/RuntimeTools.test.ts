import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { RunId, RunStore } from "@voice-agent-platform/core"
import { Effect } from "effect"
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
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("the runtime's agent and tool calls, %s storage", (_, server) => {
  it.scopedLive("a run reads the agent version it was placed with, tools without secrets", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const credential = yield* shopKey(client)
      const lookup = yield* tool(client, "Lookup", {
        type: "http_api",
        config: {
          method: "GET",
          url: "https://example.com/orders",
          headers: { Authorization: `Bearer ${secret}`, "X-Plain": "visible" },
          credential_uuid: credential
        }
      })
      const { agent, runId } = yield* agentWithRun(client, [lookup], ["+48 500 000 111"])
      // a later change of the agent is not the run's
      created(
        yield* send(
          client,
          json("PATCH", `/api/v1/agents/${agent.public_id}`, { system_prompt: "Changed", tools: [] })
        )
      )

      const read = yield* runtime(client).get(`/runtime/v1/runs/${runId}/agent`)
      expect(read.status, read.text).toBe(200)
      expect(read.body).toMatchObject({
        workflow_run_id: runId,
        workflow_id: agent.id,
        version: 2,
        system_prompt: "You help Ada.",
        first_message: "Hi Ada",
        transfer_numbers: ["+48500000111"],
        tools: [
          {
            tool_uuid: lookup,
            definition: {
              type: "http_api",
              config: { headers: { Authorization: "****", "X-Plain": "visible" } }
            }
          }
        ]
      })
      expect(read.text).not.toContain(secret)
      // the call itself is read from that version too
      const call = yield* runtime(client).get(`/runtime/v1/runs/${runId}`)
      expect(call.body).toMatchObject({ system_prompt: "You help Ada.", first_message: "Hi Ada" })
      // without the runtime's token there is nothing to read
      expect((yield* send(client, HttpClientRequest.get(`/runtime/v1/runs/${runId}/agent`))).status).toBe(401)
      expect((yield* runtime(client).get(`/runtime/v1/runs/999999999999/agent`)).status).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.scopedLive("a run placed with an agent's first version keeps its transfer numbers through a PATCH", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const agent = created(
        yield* send(client, json("POST", "/api/v1/agents/from-script", { agent: { greeting: "Hi" } }))
      )
      const run = created(
        yield* send(client, json("POST", `/api/v1/agents/${agent.public_id}/conversations`, { mode: "chat" }))
      )
      for (const patch of [
        { transfer_numbers: ["+48 500 000 222"] },
        { workflow_configurations: { transfer_numbers: ["+48500000333"] } }
      ]) {
        created(yield* send(client, json("PATCH", `/api/v1/agents/${agent.public_id}`, patch)))
        const read = yield* runtime(client).get(`/runtime/v1/runs/${run.workflow_run_id}/agent`)
        expect(read.body).toMatchObject({ version: 1, transfer_numbers: [] })
      }
    }).pipe(Effect.provide(server))
  )

  it.scopedLive(
    "runs the version's tools, logs each call without secrets, and erases the log with the run",
    () =>
      Effect.gen(function* () {
        const local = yield* receiver((request, response) =>
          answerJson(response, 200, {
            url: request.url,
            echo: request.headers["x-shop-key"],
            big: "x".repeat(6000)
          })
        )
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const credential = yield* shopKey(client)
        const lookup = yield* tool(client, "Lookup", {
          type: "http_api",
          config: {
            method: "GET",
            url: `${local.origin}/orders/{{initial_context.shop}}`,
            credential_uuid: credential,
            parameters: [
              { name: "order", type: "string", description: "The order" },
              { name: "password", type: "string", description: "Never logged", required: false }
            ]
          }
        })
        const transfer = yield* tool(client, "Transfer", {
          type: "transfer",
          config: { destination_number: "+48 22 123 45 67", message: "Transferring {{initial_context.name}}" }
        })
        const hangUp = yield* tool(client, "Bye", {
          type: "end_call",
          config: { messageType: "custom", customMessage: "Goodbye {{initial_context.name}}" }
        })
        const unused = yield* tool(client, "Not this agent's", { type: "end_call", config: {} })
        const { agent, runId } = yield* agentWithRun(client, [lookup, transfer, hangUp], ["+48500000111"])
        const calls = `/runtime/v1/runs/${runId}/tool-calls`

        const looked = yield* runtime(client).post(calls, {
          tool_uuid: lookup,
          arguments: { order: "A-1", password: "hunter2" }
        })
        expect(looked.status, looked.text).toBe(200)
        expect(looked.body).toMatchObject({ ok: true, status_code: 200, error: null })
        expect((looked.body as Body).response.url).toBe("/orders/north?order=A-1&password=hunter2")
        expect(looked.text).not.toContain(secret)
        expect(local.requests).toHaveLength(1)
        expect(local.requests[0]!.headers["x-shop-key"]).toBe(secret)

        const moved = yield* runtime(client).post(calls, {
          tool_uuid: transfer,
          arguments: { destination_number: "+48 500 000 111" }
        })
        expect(moved.body).toMatchObject({
          ok: true,
          response: { action: "transfer", destination_number: "+48500000111" },
          message: "Transferring Ada"
        })
        const elsewhere = yield* runtime(client).post(calls, {
          tool_uuid: transfer,
          arguments: { destination_number: "+48 600 000 000" }
        })
        expect((elsewhere.body as Body).response).toEqual({
          action: "transfer",
          destination_number: "+48221234567"
        })
        const ended = yield* runtime(client).post(calls, { tool_uuid: hangUp })
        expect((ended.body as Body).response).toEqual({ action: "end_call", message: "Goodbye Ada" })

        // a tool that is not this version's, another organization's, or unknown: 404, nothing runs
        const other = yield* organization()
        const otherClient = yield* rawClient(other.apiKey)
        const foreign = yield* tool(otherClient, "Theirs", { type: "end_call", config: {} })
        for (const toolUuid of [unused, foreign, "00000000-0000-4000-8000-000000000000"]) {
          expect((yield* runtime(client).post(calls, { tool_uuid: toolUuid })).status).toBe(404)
        }
        expect((yield* runtime(client).post(calls, { tool_uuid: lookup, arguments: "x" })).status).toBe(422)
        expect(
          (yield* runtime(client).post(`/runtime/v1/runs/999999999999/tool-calls`, { tool_uuid: lookup }))
            .status
        ).toBe(404)
        expect(local.requests).toHaveLength(1)

        const runPath = `/api/v1/agents/${agent.public_id}/conversations/${runId}`
        const run = created(yield* send(client, HttpClientRequest.get(runPath)))
        const logged = (run.logs as Array<Body>).filter((entry) => entry.tool_call !== undefined)
        expect(logged.map((entry) => entry.tool_call.tool_uuid)).toEqual([lookup, transfer, transfer, hangUp])
        const first = logged[0]!.tool_call
        expect(first).toMatchObject({
          tool_type: "http_api",
          arguments: { order: "A-1", password: "****" },
          outcome: "ok",
          error_type: null,
          status_code: 200,
          response_truncated: true
        })
        expect(first.response.length).toBe(4096)
        expect(JSON.stringify(run.logs)).not.toContain(secret)
        expect(JSON.stringify(run.logs)).not.toContain("hunter2")

        expect((yield* send(client, HttpClientRequest.del(runPath))).status).toBe(204)
        expect((yield* send(client, HttpClientRequest.get(runPath))).status).toBe(404)
        expect((yield* runtime(client).post(calls, { tool_uuid: hangUp })).status).toBe(404)
      }).pipe(Effect.provide(server))
  )

  it.scopedLive("refuses an archived tool, a run past its tool-call bound, and an ended run with 409", () =>
    Effect.gen(function* () {
      const { apiKey, organization: owner } = yield* organization()
      const client = yield* rawClient(apiKey)
      const bye = yield* tool(client, "Bye", { type: "end_call", config: {} })
      const archived = yield* tool(client, "Old", { type: "end_call", config: {} })
      const { runId } = yield* agentWithRun(client, [bye, archived], [])
      created(yield* send(client, HttpClientRequest.del(`/api/v1/tools/${archived}`)))
      const calls = `/runtime/v1/runs/${runId}/tool-calls`
      const refused = yield* runtime(client).post(calls, { tool_uuid: archived })
      expect(refused.status).toBe(409)
      expect((refused.body as Body).detail).toMatch(/^tool_archived: /)

      for (let i = 0; i < 100; i++) {
        const answered = yield* runtime(client).post(calls, { tool_uuid: bye })
        expect(answered.status, answered.text).toBe(200)
      }
      const over = yield* runtime(client).post(calls, { tool_uuid: bye })
      expect(over.status).toBe(409)
      expect((over.body as Body).detail).toMatch(/^tool_call_limit: /)

      // an ended run makes no tool calls
      const second = yield* agentWithRun(client, [bye], [])
      const runs = yield* RunStore.RunStore
      yield* runs.update(owner.id, RunId.RunId.make(second.runId), {
        status: "completed",
        ended_at: new Date()
      })
      const ended = yield* runtime(client).post(`/runtime/v1/runs/${second.runId}/tool-calls`, {
        tool_uuid: bye
      })
      expect(ended.status).toBe(409)
      expect((ended.body as Body).detail).toMatch(/^run_ended: /)
    }).pipe(Effect.provide(server))
  )

  it.scopedLive(
    "an integration tool with no provider is 422 and not logged; a failed call is logged as an error",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const client = yield* rawClient(apiKey)
        const weather = yield* tool(client, "Weather", {
          type: "integration",
          config: { provider: "weather", api_key: secret }
        })
        const transfer = yield* tool(client, "Transfer", { type: "transfer", config: {} })
        const { agent, runId } = yield* agentWithRun(client, [weather, transfer], [])
        const calls = `/runtime/v1/runs/${runId}/tool-calls`
        const refused = yield* runtime(client).post(calls, { tool_uuid: weather })
        expect(refused.status).toBe(422)
        expect(refused.text).not.toContain(secret)
        const nowhere = yield* runtime(client).post(calls, {
          tool_uuid: transfer,
          arguments: { destination_number: "+48500000111" }
        })
        expect(nowhere.status).toBe(200)
        expect(nowhere.body).toMatchObject({ ok: false, error: { type: "no_transfer_destination" } })
        const run = created(
          yield* send(
            client,
            HttpClientRequest.get(`/api/v1/agents/${agent.public_id}/conversations/${runId}`)
          )
        )
        const logged = (run.logs as Array<Body>).filter((entry) => entry.tool_call !== undefined)
        expect(logged).toHaveLength(1)
        expect(logged[0]).toMatchObject({
          level: "warning",
          tool_call: { tool_uuid: transfer, outcome: "error", error_type: "no_transfer_destination" }
        })
      }).pipe(Effect.provide(server))
  )
})
