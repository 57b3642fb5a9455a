import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { AgentId } from "../../src/agents/AgentIds.js"
import { MinorUnits } from "../../src/money/Money.js"
import type { UsageLine } from "../../src/usage/UsageReport.js"
import { build, dayUtc } from "../../src/usage/UsageReport.js"

const period = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-04-01T00:00:00Z") }

const line = (agent: number, at: string, duration_seconds: number, cost: number): UsageLine => ({
  kind: "call",
  agent_id: AgentId.make(agent),
  recorded_at: new Date(at),
  duration_seconds,
  cost: MinorUnits.make(cost)
})

const lines = [
  line(2, "2026-03-02T00:00:00.000Z", 30, 50),
  line(1, "2026-03-01T23:59:59.999Z", 61, 122),
  line(1, "2026-03-01T08:00:00+01:00", 10, 20),
  line(3, "2026-03-02T10:00:00Z", 0, 0)
]

const anyLine: FastCheck.Arbitrary<UsageLine> = FastCheck.record({
  kind: FastCheck.constant("call" as const),
  agent_id: FastCheck.integer({ min: 1, max: 5 }).map((id) => AgentId.make(id)),
  recorded_at: FastCheck.integer({ min: 0, max: 10 * 86_400_000 }).map(
    (ms) => new Date(Date.UTC(2026, 2, 1) + ms)
  ),
  duration_seconds: FastCheck.integer({ min: 0, max: 10_000 }),
  cost: FastCheck.integer({ min: 0, max: 100_000 }).map((c) => MinorUnits.make(c))
})

const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0)

describe("UsageReport.build", () => {
  it("groups by UTC day, in ascending order, splitting at UTC midnight", () => {
    expect(build({ lines, groupBy: "day", period })).toEqual({
      period,
      group_by: "day",
      rows: [
        { group: "day", day: "2026-03-01", calls: 2, duration_seconds: 71, cost: 142 },
        { group: "day", day: "2026-03-02", calls: 2, duration_seconds: 30, cost: 50 }
      ],
      totals: { calls: 4, duration_seconds: 101, cost: 192 }
    })
  })

  it("groups by agent, by ascending agent number, keeping calls that cost nothing", () => {
    expect(build({ lines, groupBy: "agent", period }).rows).toEqual([
      { group: "agent", agent_id: 1, calls: 2, duration_seconds: 71, cost: 142 },
      { group: "agent", agent_id: 2, calls: 1, duration_seconds: 30, cost: 50 },
      { group: "agent", agent_id: 3, calls: 1, duration_seconds: 0, cost: 0 }
    ])
  })

  it("answers no rows and zero totals for an empty period", () => {
    expect(build({ lines: [], groupBy: "day", period })).toEqual({
      period,
      group_by: "day",
      rows: [],
      totals: { calls: 0, duration_seconds: 0, cost: 0 }
    })
  })

  it.prop(
    "adds the rows up to the totals, one row per group in ascending order",
    [FastCheck.array(anyLine, { maxLength: 60 }), FastCheck.constantFrom("day" as const, "agent" as const)],
    ([input, groupBy]) => {
      const report = build({ lines: input, groupBy, period })
      // the totals are the lines' sums, and the rows add up to them
      expect(report.totals).toEqual({
        calls: input.length,
        duration_seconds: sum(input.map((l) => l.duration_seconds)),
        cost: sum(input.map((l) => l.cost))
      })
      expect(sum(report.rows.map((r) => r.calls))).toBe(report.totals.calls)
      expect(sum(report.rows.map((r) => r.duration_seconds))).toBe(report.totals.duration_seconds)
      expect(sum(report.rows.map((r) => r.cost))).toBe(report.totals.cost)
      // one row per group, strictly ascending, none empty
      const keys = report.rows.map((r) => (r.group === "day" ? r.day : r.agent_id))
      expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      expect(new Set(keys).size).toBe(keys.length)
      expect(report.rows.every((r) => r.calls > 0 && r.group === groupBy)).toBe(true)
    }
  )

  it.prop(
    "puts each line in its group, whatever the order of the lines",
    [FastCheck.array(anyLine, { minLength: 1, maxLength: 40 })],
    ([input]) => {
      // each row holds exactly the lines of its group, and the order of the lines does not matter
      const report = build({ lines: input, groupBy: "day", period })
      for (const row of report.rows) {
        if (row.group !== "day") throw new Error("expected day rows")
        const mine = input.filter((l) => dayUtc(l.recorded_at) === row.day)
        expect(row.calls).toBe(mine.length)
        expect(row.cost).toBe(sum(mine.map((l) => l.cost)))
      }
      expect(build({ lines: [...input].reverse(), groupBy: "day", period })).toEqual(report)
      expect(build({ lines: [...input].reverse(), groupBy: "agent", period })).toEqual(
        build({ lines: input, groupBy: "agent", period })
      )
    }
  )

  it.prop(
    "takes the UTC date of an instant as its day",
    [FastCheck.date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31T23:59:59.999Z") })],
    ([at]) => {
      // the day is the instant's UTC date
      expect(dayUtc(at)).toBe(at.toISOString().slice(0, 10))
    }
  )
})
