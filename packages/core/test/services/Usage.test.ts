import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { AgentId } from "../../src/agents/AgentIds.js"
import { MinorUnits } from "../../src/money/Money.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import { RunId } from "../../src/runs/RunId.js"
import { Usage } from "../../src/usage/Usage.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine, setNow } from "./Engine.js"

let nextRun = 1

/** Writes one ledger line, as the end of a call would. */
const record = (
  organizationId: OrganizationId,
  agentId: AgentId,
  at: string,
  duration_seconds: number,
  cost: number
) =>
  Effect.flatMap(UsageStore, (ledger) =>
    ledger.record({
      organization_id: organizationId,
      run_id: RunId.make(nextRun++),
      agent_id: agentId,
      mode: "phone",
      kind: "call" as const,
      prompt_tokens: 0,
      completion_tokens: 0,
      duration_seconds,
      cost: MinorUnits.make(cost),
      currency: "PLN",
      recorded_at: new Date(at)
    })
  )

describe("Usage", () => {
  it.effect("sums the current UTC month by default, and only the organization's own lines", () =>
    Effect.gen(function* () {
      yield* setNow("2026-03-15T12:00:00Z")
      const usage = yield* Usage
      const org = yield* Fixtures.organization()
      const other = yield* Fixtures.organization()
      const agent = (yield* Fixtures.agent(org.id)).agent.id
      const otherAgent = (yield* Fixtures.agent(other.id)).agent.id
      yield* record(org.id, agent, "2026-02-28T23:59:59.999Z", 100, 1000) // February
      yield* record(org.id, agent, "2026-03-01T00:00:00.000Z", 61, 122)
      yield* record(org.id, agent, "2026-03-31T23:59:59.999Z", 30, 60)
      yield* record(org.id, agent, "2026-04-01T00:00:00.000Z", 100, 1000) // April
      yield* record(other.id, otherAgent, "2026-03-10T00:00:00.000Z", 500, 5000)

      expect(yield* usage.summary(org.id, {})).toEqual({
        period: { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-04-01T00:00:00Z") },
        totals: { calls: 2, duration_seconds: 91, cost: 182 }
      })
      const february = { from: new Date("2026-02-01T00:00:00Z"), to: new Date("2026-03-01T00:00:00Z") }
      expect((yield* usage.summary(org.id, february)).totals).toEqual({
        calls: 1,
        duration_seconds: 100,
        cost: 1000
      })
      const runs = yield* usage.runs(org.id, {}, { page: 1, limit: 1 })
      expect(runs.page).toMatchObject({ total_count: 2, total_pages: 2, page: 1, limit: 1 })
      expect(runs.page.items.map((l) => l.recorded_at)).toEqual([new Date("2026-03-31T23:59:59.999Z")])
    }).pipe(Effect.provide(engine))
  )

  it.effect("reports every line of the period, across more lines than one page holds", () =>
    Effect.gen(function* () {
      yield* setNow("2026-03-15T12:00:00Z")
      const usage = yield* Usage
      const org = yield* Fixtures.organization()
      const first = (yield* Fixtures.agent(org.id)).agent.id
      const second = (yield* Fixtures.agent(org.id)).agent.id
      // 250 lines: 5 days × 50 lines, alternating between the two agents
      for (let i = 0; i < 250; i++) {
        const day = 1 + Math.floor(i / 50)
        const at = `2026-03-0${day}T${String(i % 24).padStart(2, "0")}:00:00.000Z`
        yield* record(org.id, i % 2 === 0 ? first : second, at, 10, 5)
      }
      const byDay = yield* usage.report(org.id, {}, "day")
      expect(byDay.rows.map((r) => (r.group === "day" ? [r.day, r.calls] : []))).toEqual(
        [1, 2, 3, 4, 5].map((d) => [`2026-03-0${d}`, 50])
      )
      expect(byDay.totals).toEqual({ calls: 250, duration_seconds: 2500, cost: 1250 })
      const byAgent = yield* usage.report(org.id, {}, "agent")
      // agents by ascending number (ids are random, so either may come first)
      expect(byAgent.rows).toEqual(
        [first, second]
          .sort((a, b) => a - b)
          .map((agent_id) => ({ group: "agent", agent_id, calls: 125, duration_seconds: 1250, cost: 625 }))
      )
      const twoDays = yield* usage.report(
        org.id,
        { from: new Date("2026-03-02T00:00:00Z"), to: new Date("2026-03-04T00:00:00Z") },
        "day"
      )
      expect(twoDays.totals.calls).toBe(100)
    }).pipe(Effect.provide(engine))
  )

  it.effect("refuses a period that does not start before it ends", () =>
    Effect.gen(function* () {
      yield* setNow("2026-03-15T12:00:00Z")
      const usage = yield* Usage
      const org = yield* Fixtures.organization()
      const error = yield* Effect.flip(usage.report(org.id, { to: new Date("2026-02-01T00:00:00Z") }, "day"))
      expect(error).toMatchObject({ _tag: "InvalidReportingPeriod", field: "to" })
      const reversed = yield* Effect.flip(
        usage.summary(org.id, {
          from: new Date("2026-03-02T00:00:00Z"),
          to: new Date("2026-03-01T00:00:00Z")
        })
      )
      expect(reversed.field).toBe("from")
    }).pipe(Effect.provide(engine))
  )
})
