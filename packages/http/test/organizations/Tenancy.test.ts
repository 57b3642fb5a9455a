import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createAgent } from "../support/RunFixtures.js"
import { json, organization, rawClient, send, TestServer, TestServerOverSql } from "../support/TestServer.js"

type Body = Record<string, any>

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("nothing crosses tenants over HTTP, %s storage", (_, server) => {
  it.effect("the numbers an organization is given say nothing of how many another made", () =>
    Effect.gen(function* () {
      const busy = yield* rawClient((yield* organization()).apiKey)
      const watcher = yield* rawClient((yield* organization()).apiKey)
      const conversation = (client: typeof busy, agentId: number) =>
        Effect.map(
          send(client, json("POST", `/api/v1/agents/${agentId}/conversations`, { mode: "chat" })),
          (response) => (response.body as Body).workflow_run_id as number
        )
      const watcherAgent = yield* createAgent(watcher)
      const runBefore = yield* conversation(watcher, watcherAgent.id)
      const agents = yield* Effect.all(Array.from({ length: 5 }, () => createAgent(busy)))
      for (const agent of agents) yield* conversation(busy, agent.id)
      const nextAgent = yield* createAgent(watcher)
      const runAfter = yield* conversation(watcher, watcherAgent.id)
      // counted from sequences shared by all organizations, the watcher's next numbers would be 6 on
      for (const id of [watcherAgent.id, nextAgent.id, runBefore, runAfter]) {
        expect(Number.isSafeInteger(id) && id > 0).toBe(true)
      }
      expect(nextAgent.id - watcherAgent.id).not.toBe(agents.length + 1)
      expect(runAfter - runBefore).not.toBe(agents.length + 1)
      // the random number is the run's address, for its organization only
      const read = yield* send(
        watcher,
        HttpClientRequest.get(`/api/v1/agents/${watcherAgent.id}/conversations/${runAfter}`)
      )
      expect([read.status, (read.body as Body).workflow_run_id]).toEqual([200, runAfter])
      const foreign = yield* send(
        busy,
        HttpClientRequest.get(`/api/v1/agents/${watcherAgent.id}/conversations/${runAfter}`)
      )
      expect(foreign.status).toBe(404)
    }).pipe(Effect.provide(server))
  )
})
