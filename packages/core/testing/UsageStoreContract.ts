import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import { MinorUnits } from "../src/money/Money.js"
import { RunStore } from "../src/runs/RunStore.js"
import * as UsageReport from "../src/usage/UsageReport.js"
import type { RunId } from "../src/runs/RunId.js"
import type { UsageKind, UsageRecord } from "../src/usage/UsageRecord.js"
import type { NewUsageRecord } from "../src/usage/UsageStore.js"
import { UsageStore } from "../src/usage/UsageStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for the usage ledger and its reports; `storeContract` runs it against every adapter. */
export const usageStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("usage ledger", () => {
    it.effect("keeps one line per run and sums a period", () =>
      Effect.gen(function* () {
        const usage = yield* UsageStore
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const line = {
          organization_id: org.id,
          run_id: run.workflow_run_id,
          agent_id: agent.id,
          mode: "phone",
          kind: "call" as const,
          prompt_tokens: 0,
          completion_tokens: 0,
          duration_seconds: 61,
          cost: MinorUnits.make(122),
          currency: "PLN" as const,
          recorded_at: at(100)
        }
        const first = yield* usage.record(line)
        const again = yield* usage.record({ ...line, cost: MinorUnits.make(999) })
        expect(again.id).toBe(first.id)
        expect(yield* usage.totals(org.id, {})).toEqual({ calls: 1, duration_seconds: 61, cost: 122 })
        expect(yield* usage.totals(org.id, { from: at(101) })).toEqual({
          calls: 0,
          duration_seconds: 0,
          cost: 0
        })
        // erasing the run keeps its line in the ledger
        yield* runs.remove(org.id, run.workflow_run_id)
        expect((yield* usage.list(org.id, {}, page(1))).total_count).toBe(1)
      })
    )
  })

  describe("usage ledger kinds", () => {
    it.effect(
      "keeps one call and one analysis line per run, every improvements and prompt line, and counts call lines as calls",
      () =>
        Effect.gen(function* () {
          const usage = yield* UsageStore
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const [first, second] = yield* runs.insertMany(
            [Fixtures.newRun(org.id, agent.id), Fixtures.newRun(org.id, agent.id, { mode: "chat" })],
            at(0)
          )
          const line = (
            kind: UsageKind,
            runId: RunId | null,
            seconds: number,
            cost: number,
            recordedAt: number
          ): NewUsageRecord => ({
            organization_id: org.id,
            kind,
            run_id: runId,
            agent_id: agent.id,
            mode: "phone",
            duration_seconds: seconds,
            cost: MinorUnits.make(cost),
            prompt_tokens: 1000 + cost,
            completion_tokens: 10 + cost,
            currency: "PLN",
            recorded_at: at(recordedAt)
          })
          const call = yield* usage.record(line("call", first!.workflow_run_id, 61, 122, 10))
          const analysis = yield* usage.record(line("analysis", first!.workflow_run_id, 0, 7, 20))
          expect(analysis.id).not.toBe(call.id)
          expect(analysis).toMatchObject({ kind: "analysis", prompt_tokens: 1007, completion_tokens: 17 })
          // a repeat of a run's line of a kind answers the first
          expect((yield* usage.record(line("call", first!.workflow_run_id, 5, 5, 30))).id).toBe(call.id)
          expect((yield* usage.record(line("analysis", first!.workflow_run_id, 5, 5, 30))).id).toBe(
            analysis.id
          )
          // a batch keeps the first of each run and kind, also within itself
          yield* usage.recordMany([
            line("call", second!.workflow_run_id, 30, 60, 40),
            line("call", second!.workflow_run_id, 99, 99, 40),
            line("analysis", second!.workflow_run_id, 0, 3, 41),
            line("analysis", first!.workflow_run_id, 0, 99, 41),
            line("improvements", null, 0, 11, 42)
          ])
          // improvements lines are all kept, with a run or without
          yield* usage.record(line("improvements", null, 0, 11, 43))
          yield* usage.recordMany([line("improvements", first!.workflow_run_id, 0, 2, 44)])
          yield* usage.record(line("improvements", first!.workflow_run_id, 0, 2, 45))
          // a prompt written by the model (generate_with_ai) is of no run, every one kept
          yield* usage.recordMany([line("prompt", null, 0, 5, 46), line("prompt", null, 0, 5, 46)])
          const listed = (yield* usage.list(org.id, {}, page(1))).items
          expect(listed.map((l) => [l.kind, l.run_id, l.cost, l.prompt_tokens, l.completion_tokens])).toEqual(
            [
              ["prompt", null, 5, 1005, 15],
              ["prompt", null, 5, 1005, 15],
              ["improvements", first!.workflow_run_id, 2, 1002, 12],
              ["improvements", first!.workflow_run_id, 2, 1002, 12],
              ["improvements", null, 11, 1011, 21],
              ["improvements", null, 11, 1011, 21],
              ["analysis", second!.workflow_run_id, 3, 1003, 13],
              ["call", second!.workflow_run_id, 60, 1060, 70],
              ["analysis", first!.workflow_run_id, 7, 1007, 17],
              ["call", first!.workflow_run_id, 122, 1122, 132]
            ]
          )
          // two calls; every line's cost
          const totals = { calls: 2, duration_seconds: 91, cost: 122 + 7 + 60 + 3 + 11 + 11 + 2 + 2 + 5 + 5 }
          expect(yield* usage.totals(org.id, {})).toEqual(totals)
          expect(yield* usage.report(org.id, {}, "agent")).toEqual([
            { group: "agent", agent_id: agent.id, ...totals }
          ])
          expect(yield* usage.report(org.id, {}, "day")).toEqual(UsageReport.group(listed, "day"))
          expect(yield* usage.totals(org.id, { from: at(20) })).toEqual({
            calls: 1,
            duration_seconds: 30,
            cost: totals.cost - 122
          })
          // a run's erasure keeps its lines
          yield* runs.remove(org.id, first!.workflow_run_id)
          expect(yield* usage.totals(org.id, {})).toEqual(totals)
        })
    )
  })

  describe("usage reports", () => {
    it.effect("sum per UTC day and per agent exactly as the lines add up, within the period", () =>
      Effect.gen(function* () {
        const usage = yield* UsageStore
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const agents = yield* Effect.all([
          Fixtures.agent(org.id),
          Fixtures.agent(org.id),
          Fixtures.agent(org.id)
        ])
        const { agent: stranger } = yield* Fixtures.agent(other.id)
        // lines around UTC midnights and the period's bounds, with a deterministic spread of values
        const base = new Date("2026-03-30T22:00:00.000Z").getTime()
        const lines: Array<UsageRecord> = []
        for (let i = 0; i < 60; i++) {
          const { agent } = agents[(i * 7) % 3]!
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const line = {
            organization_id: org.id,
            run_id: run.workflow_run_id,
            agent_id: agent.id,
            mode: "phone",
            kind: "call" as const,
            prompt_tokens: 0,
            completion_tokens: 0,
            duration_seconds: (i * 37) % 300,
            cost: MinorUnits.make(((i * 53) % 1000) - 100),
            currency: "PLN" as const,
            recorded_at: new Date(base + i * 97 * 60_000 + (i % 2) * 999)
          }
          lines.push(yield* usage.record(line))
        }
        // another organization's line in the same hours counts for it only
        const foreign = yield* runs.insert(Fixtures.newRun(other.id, stranger.id), at(0))
        yield* usage.record({
          organization_id: other.id,
          run_id: foreign.workflow_run_id,
          agent_id: stranger.id,
          mode: "phone",
          kind: "call" as const,
          prompt_tokens: 0,
          completion_tokens: 0,
          duration_seconds: 0,
          cost: MinorUnits.make(-100),
          currency: "PLN",
          recorded_at: lines[0]!.recorded_at
        })

        const periods = [
          {},
          { from: new Date(base + 3_600_000) },
          { from: new Date(base + 3_600_000), to: new Date(base + 2 * 86_400_000 + 1) },
          { to: new Date(base - 1) }
        ]
        for (const period of periods) {
          const within = lines.filter(
            (l) =>
              (period.from === undefined || l.recorded_at >= period.from) &&
              (period.to === undefined || l.recorded_at < period.to)
          )
          for (const groupBy of ["day", "agent"] as const) {
            // the in-memory reference: the rows grouped from the lines themselves
            expect(yield* usage.report(org.id, period, groupBy)).toEqual(UsageReport.group(within, groupBy))
          }
        }
        const byDay = yield* usage.report(org.id, {}, "day")
        expect(byDay.map((row) => (row.group === "day" ? row.day : ""))).toEqual([
          "2026-03-30",
          "2026-03-31",
          "2026-04-01",
          "2026-04-02",
          "2026-04-03"
        ])
        expect(yield* usage.report(other.id, {}, "agent")).toEqual([
          { group: "agent", agent_id: stranger.id, calls: 1, duration_seconds: 0, cost: -100 }
        ])
      })
    )
  })
}
