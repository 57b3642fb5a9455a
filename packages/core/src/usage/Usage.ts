import { Clock, Context, Effect, Layer } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { maxLimit } from "../pagination/Page.js"
import { Transactions } from "../storage/Transactions.js"
import * as ReportingPeriod from "./ReportingPeriod.js"
import type { InvalidReportingPeriod } from "./UsageErrors.js"
import type { UsageRecord } from "./UsageRecord.js"
import * as UsageReport from "./UsageReport.js"
import type { UsageTotals } from "./UsageStore.js"
import { UsageStore } from "./UsageStore.js"

/** The totals of a period, with the period they cover. */
export interface UsageSummary {
  readonly period: ReportingPeriod.ReportingPeriod
  readonly totals: UsageTotals
}

/** One page of the ledger lines of a period, with the period they cover. */
export interface UsageRuns {
  readonly period: ReportingPeriod.ReportingPeriod
  readonly page: Page<UsageRecord>
}

/**
 * An organization's usage from the billing ledger. Every read takes a requested period whose missing
 * bounds default to the current UTC calendar month, and never sees another organization's lines.
 */
export class Usage extends Context.Tag("@voice-agent-platform/core/Usage")<
  Usage,
  {
    readonly summary: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod
    ) => Effect.Effect<UsageSummary, InvalidReportingPeriod>
    /** Ledger lines of the period, newest first. */
    readonly runs: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod,
      page: PageRequest
    ) => Effect.Effect<UsageRuns, InvalidReportingPeriod>
    readonly report: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod,
      groupBy: UsageReport.UsageGrouping
    ) => Effect.Effect<UsageReport.UsageReport, InvalidReportingPeriod>
  }
>() {}

export const layer = Layer.effect(
  Usage,
  Effect.gen(function* () {
    const ledger = yield* UsageStore
    const transactions = yield* Transactions

    const period = (requested: ReportingPeriod.RequestedPeriod) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) => ReportingPeriod.resolve(requested, new Date(ms)))

    /** Every line of the period, read page by page in one transaction; keyed by id so a line counts once. */
    const allLines = (organizationId: OrganizationId, within: ReportingPeriod.ReportingPeriod) =>
      transactions.run(
        Effect.gen(function* () {
          const lines = new Map<number, UsageRecord>()
          for (let page = 1; ; page++) {
            const read = yield* ledger.list(organizationId, within, { page, limit: maxLimit })
            for (const line of read.items) lines.set(line.id, line)
            if (read.items.length === 0 || page >= read.total_pages) return lines.values()
          }
        })
      )

    return {
      summary: (organizationId, requested) =>
        Effect.flatMap(period(requested), (within) =>
          Effect.map(ledger.totals(organizationId, within), (totals) => ({ period: within, totals }))
        ),
      runs: (organizationId, requested, page) =>
        Effect.flatMap(period(requested), (within) =>
          Effect.map(ledger.list(organizationId, within, page), (lines) => ({ period: within, page: lines }))
        ),
      report: (organizationId, requested, groupBy) =>
        Effect.flatMap(period(requested), (within) =>
          Effect.map(allLines(organizationId, within), (lines) =>
            UsageReport.build({ lines, groupBy, period: within })
          )
        )
    }
  })
)
