import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { TestServer, TestServerOverSql } from "../support/TestServer.js"
import { type Body, call, get, line, march, setup } from "../support/UsageFixtures.js"

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("usage of the language model over HTTP, %s storage", (_, server) => {
  it.live("shows every kind of line with its tokens, and counts only finished calls as calls", () =>
    Effect.gen(function* () {
      const { org, agents, client } = yield* setup
      const called = yield* call(org.id, agents[0], "2026-03-01T08:00:00Z", 61, 122)
      yield* line(org.id, agents[0], "analysis", called.run_id, "2026-03-01T08:05:00Z", 0, 3, 1200)
      // a repeated analysis of the call is charged once
      yield* line(org.id, agents[0], "analysis", called.run_id, "2026-03-01T08:06:00Z", 0, 3, 1200)
      yield* line(org.id, agents[1], "improvements", null, "2026-03-02T08:00:00Z", 0, 25, 5000)

      const page = yield* get(client, `/api/v1/usage/runs?${march}`)
      expect(page.status).toBe(200)
      expect((page.body as Body).items).toEqual([
        {
          workflow_run_id: null,
          workflow_id: agents[1],
          kind: "improvements",
          mode: "phone",
          duration_seconds: 0,
          cost_pln: 0.25,
          prompt_tokens: 5000,
          completion_tokens: 500,
          currency: "PLN",
          recorded_at: "2026-03-02T08:00:00.000Z"
        },
        {
          workflow_run_id: called.run_id,
          workflow_id: agents[0],
          kind: "analysis",
          mode: "phone",
          duration_seconds: 0,
          cost_pln: 0.03,
          prompt_tokens: 1200,
          completion_tokens: 120,
          currency: "PLN",
          recorded_at: "2026-03-01T08:05:00.000Z"
        },
        expect.objectContaining({ workflow_run_id: called.run_id, kind: "call", cost_pln: 1.22 })
      ])
      expect((yield* get(client, `/api/v1/organizations/usage/runs?${march}`)).body).toEqual(page.body)
      const totals = { calls: 1, duration_seconds: 61, cost_pln: 1.5 }
      expect((yield* get(client, `/api/v1/usage?${march}`)).body).toMatchObject(totals)
      const byAgent = (yield* get(client, `/api/v1/reports/usage?${march}&group_by=agent`)).body as Body
      expect(byAgent.totals).toEqual(totals)
      expect(byAgent.rows).toEqual(
        [
          { workflow_id: agents[0], calls: 1, duration_seconds: 61, cost_pln: 1.25 },
          { workflow_id: agents[1], calls: 0, duration_seconds: 0, cost_pln: 0.25 }
        ].sort((a, b) => a.workflow_id - b.workflow_id)
      )
      const doc = OpenApi.fromApi(Api) as Body
      const usageRun = doc.components.schemas.UsageRun
      expect(usageRun.properties.kind.enum).toEqual(["call", "analysis", "improvements", "prompt"])
      expect(usageRun.required).toEqual(
        expect.arrayContaining(["kind", "prompt_tokens", "completion_tokens"])
      )
    }).pipe(Effect.provide(server))
  )
})
