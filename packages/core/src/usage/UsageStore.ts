import { Context, type Effect } from "effect"
import type { MinorUnits } from "../money/Money.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { UsageRecord } from "./UsageRecord.js"
import type { UsageGrouping, UsageReportRow } from "./UsageReport.js"

export type NewUsageRecord = Omit<UsageRecord, "id">

/** A period of the ledger: `from` inclusive, `to` exclusive; either may be open. */
export interface UsagePeriod {
  readonly from?: Date
  readonly to?: Date
}

export interface UsageTotals {
  readonly calls: number
  readonly duration_seconds: number
  readonly cost: MinorUnits
}

/**
 * The billing ledger. One `call` line and one `analysis` line per run at most: recording a run's line of a
 * kind twice keeps the first. `improvements` and `prompt` lines have no run and are all kept. Totals and reports count
 * only `call` lines as calls and sum every line's cost.
 */
export class UsageStore extends Context.Tag("@voice-agent-platform/core/UsageStore")<
  UsageStore,
  {
    readonly record: (line: NewUsageRecord) => Effect.Effect<UsageRecord>
    /**
     * Records several lines in one step (calls' ends taken together); a run that has its line already
     * keeps it, as with `record`.
     */
    readonly recordMany: (lines: ReadonlyArray<NewUsageRecord>) => Effect.Effect<void>
    readonly list: (
      organizationId: OrganizationId,
      period: UsagePeriod,
      page: PageRequest
    ) => Effect.Effect<Page<UsageRecord>>
    readonly totals: (organizationId: OrganizationId, period: UsagePeriod) => Effect.Effect<UsageTotals>
    /**
     * The period's usage summed per group (`UsageReport.build`'s rows: UTC days ascending, or agents by
     * number), aggregated where the lines are (in SQL, by the database): a report never reads lines.
     */
    readonly report: (
      organizationId: OrganizationId,
      period: UsagePeriod,
      groupBy: UsageGrouping
    ) => Effect.Effect<ReadonlyArray<UsageReportRow>>
  }
>() {}
