import { DateTime, Schema } from "effect"
import type { AgentId } from "../agents/AgentIds.js"
import { MinorUnits } from "../money/Money.js"
import type { ReportingPeriod } from "./ReportingPeriod.js"
import type { UsageRecord } from "./UsageRecord.js"
import type { UsageTotals } from "./UsageStore.js"

/** How a usage report groups the ledger: by UTC calendar day or by agent. */
export const UsageGrouping = Schema.Literal("day", "agent").annotations({ identifier: "UsageGrouping" })
export type UsageGrouping = typeof UsageGrouping.Type

/** What a report needs of a ledger line. */
export type UsageLine = Pick<UsageRecord, "kind" | "agent_id" | "duration_seconds" | "cost" | "recorded_at">

/** The usage of one UTC day (`YYYY-MM-DD`). */
export interface DayRow extends UsageTotals {
  readonly group: "day"
  readonly day: string
}

/** The usage of one agent. */
export interface AgentRow extends UsageTotals {
  readonly group: "agent"
  readonly agent_id: AgentId
}

/** One row of a report: the totals of one group. */
export type UsageReportRow = DayRow | AgentRow

/** A usage report: one row per group that has usage in the period, and the totals of the period. */
export interface UsageReport {
  readonly period: ReportingPeriod
  readonly group_by: UsageGrouping
  /** Days in ascending order, or agents by ascending number; groups without usage are left out. */
  readonly rows: ReadonlyArray<UsageReportRow>
  readonly totals: UsageTotals
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const dayUtc = (at: Date): string => DateTime.formatIsoDateUtc(DateTime.unsafeMake(at))

interface Sums {
  calls: number
  duration_seconds: number
  cost: number
}

/** A line adds its cost; only a `call` line counts as a call (the others have no duration). */
const add = (sums: Sums, line: UsageLine): void => {
  if (line.kind === "call") sums.calls += 1
  sums.duration_seconds += line.duration_seconds
  sums.cost += line.cost
}

const totalsOf = (sums: Sums): UsageTotals => ({
  calls: sums.calls,
  duration_seconds: sums.duration_seconds,
  cost: MinorUnits.make(sums.cost)
})

/** The rows of a report over the lines: one per group with usage, days ascending or agents by number. */
export const group = (lines: Iterable<UsageLine>, groupBy: UsageGrouping): ReadonlyArray<UsageReportRow> => {
  const groups = new Map<string | number, { key: string | number; sums: Sums }>()
  for (const line of lines) {
    const key = groupBy === "day" ? dayUtc(line.recorded_at) : line.agent_id
    let found = groups.get(key)
    if (found === undefined) {
      found = { key, sums: { calls: 0, duration_seconds: 0, cost: 0 } }
      groups.set(key, found)
    }
    add(found.sums, line)
  }
  return [...groups.values()]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ key, sums }) =>
      typeof key === "string"
        ? { group: "day", day: key, ...totalsOf(sums) }
        : { group: "agent", agent_id: key as AgentId, ...totalsOf(sums) }
    )
}

/** Groups the ledger lines of a period into a report; the rows always add up to the totals. */
export const build = (input: {
  readonly lines: Iterable<UsageLine>
  readonly groupBy: UsageGrouping
  readonly period: ReportingPeriod
}): UsageReport =>
  fromRows({ rows: group(input.lines, input.groupBy), groupBy: input.groupBy, period: input.period })

/** The report of the given rows: the totals are their sum, so the rows always add up to them. */
export const fromRows = (input: {
  readonly rows: ReadonlyArray<UsageReportRow>
  readonly groupBy: UsageGrouping
  readonly period: ReportingPeriod
}): UsageReport => {
  const total: Sums = { calls: 0, duration_seconds: 0, cost: 0 }
  for (const row of input.rows) {
    total.calls += row.calls
    total.duration_seconds += row.duration_seconds
    total.cost += row.cost
  }
  return { period: input.period, group_by: input.groupBy, rows: input.rows, totals: totalsOf(total) }
}
