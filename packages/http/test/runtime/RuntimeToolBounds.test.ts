import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { RunId, RunStore } from "@voice-agent-platform/core"
import { Effect, Fiber } from "effect"
import type { ServerResponse } from "node:http"
import { answerJson, receiver } from "../support/Receiver.js"
import { agentWithRun, type Body, created, runtime, tool } from "../support/RuntimeToolFixtures.js"
import { organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

/**
 * A tool call's bounds (an ended run, 100 calls a run) are checked when it starts and again when it is
 * logged: a call that was slow while the run ended, or while other calls filled the bound, leaves a short
 * line without its record.
 */
describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("the bounds of a slow tool call, %s storage", (_, server) => {
  it.scopedLive("a call that ends after its run did, or past the run's 100 calls, keeps no record", () =>
    Effect.gen(function* () {
      const held: Array<ServerResponse> = []
      const local = yield* receiver((_request, response) => {
        held.push(response)
      })
      const { apiKey, organization: owner } = yield* organization()
      const client = yield* rawClient(apiKey)
      const slow = yield* tool(client, "Slow", {
        type: "http_api",
        config: { method: "GET", url: `${local.origin}/slow`, timeout_ms: 30000 }
      })
      const bye = yield* tool(client, "Bye", { type: "end_call", config: {} })
      const loggedOf = (agentId: string, runId: number) =>
        Effect.map(
          send(client, HttpClientRequest.get(`/api/v1/agents/${agentId}/conversations/${runId}`)),
          (response) => created(response).logs as Array<Body>
        )
      const slowCall = (runId: number) =>
        Effect.gen(function* () {
          const before = held.length
          const call = yield* Effect.fork(
            runtime(client).post(`/runtime/v1/runs/${runId}/tool-calls`, { tool_uuid: slow })
          )
          while (held.length === before) yield* Effect.sleep("10 millis")
          return call
        })

      // the run's last call left starts slow; another fills the bound while it waits for its answer
      const filled = yield* agentWithRun(client, [slow, bye], [])
      const fast = () =>
        runtime(client).post(`/runtime/v1/runs/${filled.runId}/tool-calls`, { tool_uuid: bye })
      for (let i = 0; i < 99; i++) {
        const answered = yield* fast()
        expect(answered.status, answered.text).toBe(200)
      }
      const waiting = yield* slowCall(filled.runId)
      expect((yield* fast()).status).toBe(200)
      expect((yield* fast()).status).toBe(409)
      answerJson(held[0]!, 200, { ok: true })
      expect((yield* Fiber.join(waiting)).status).toBe(200)
      const full = yield* loggedOf(filled.agent.public_id, filled.runId)
      expect(full.filter((entry) => entry.tool_call !== undefined)).toHaveLength(100)
      expect(full.at(-1)).toEqual({
        timestamp: expect.any(String),
        level: "warning",
        message: expect.stringMatching(
          /^Tool Slow \(http_api\) answered in \d+ ms; the run's logs already held 100 tool calls, so its record is not kept$/
        )
      })

      // the run ends while the call waits for its answer
      const ending = yield* agentWithRun(client, [slow], [])
      const late = yield* slowCall(ending.runId)
      const runs = yield* RunStore.RunStore
      yield* runs.update(owner.id, RunId.RunId.make(ending.runId), {
        status: "completed",
        ended_at: new Date()
      })
      answerJson(held[1]!, 200, { ok: true })
      expect((yield* Fiber.join(late)).status).toBe(200)
      const ended = yield* loggedOf(ending.agent.public_id, ending.runId)
      expect(ended.filter((entry) => entry.tool_call !== undefined)).toHaveLength(0)
      expect(ended.at(-1)!.message).toMatch(/; the run had ended, so its record is not kept$/)
    }).pipe(Effect.provide(server))
  )
})
