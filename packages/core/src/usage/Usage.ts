import { Clock, Context, Effect, Layer } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import * as ReportingPeriod from "./ReportingPeriod.js"
import type { InvalidReportingPeriod, ReportingPeriodTooLong } from "./UsageErrors.js"
import type { UsageRecord } from "./UsageRecord.js"
import * as UsageReport from "./UsageReport.js"
import type { UsageTotals } from "./UsageStore.js"

/** Why a requested period is refused: empty (`from >= to`) or longer than a year. */
export type PeriodRefused = InvalidReportingPeriod | ReportingPeriodTooLong
import { UsageStore } from "./UsageStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

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
 * bounds default to the current UTC calendar month and which spans at most a year, and never sees
 * another organization's lines. Totals and reports are summed by the store, never from loaded lines.
 */
export class Usage extends Context.Tag("@voice-agent-platform/core/Usage")<
  Usage,
  {
    readonly summary: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod
    ) => Effect.Effect<UsageSummary, PeriodRefused>
    /** Ledger lines of the period, newest first. */
    readonly runs: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod,
      page: PageRequest
    ) => Effect.Effect<UsageRuns, PeriodRefused>
    readonly report: (
      organizationId: OrganizationId,
      requested: ReportingPeriod.RequestedPeriod,
      groupBy: UsageReport.UsageGrouping
    ) => Effect.Effect<UsageReport.UsageReport, PeriodRefused>
  }
>() {}

export const layer = Layer.effect(
  Usage,
  Effect.gen(function* () {
    const ledger = yield* UsageStore

    const period = (requested: ReportingPeriod.RequestedPeriod) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) => ReportingPeriod.resolve(requested, new Date(ms)))

    return Usage.of({
      summary: OperationSpans.fn("Usage.summary")(
        (organizationId, requested) =>
          Effect.flatMap(period(requested), (within) =>
            Effect.map(ledger.totals(organizationId, within), (totals) => ({ period: within, totals }))
          ),
        SpanAttributes.organization
      ),
      runs: OperationSpans.fn("Usage.runs")(
        (organizationId, requested, page) =>
          Effect.flatMap(period(requested), (within) =>
            Effect.map(ledger.list(organizationId, within, page), (lines) => ({
              period: within,
              page: lines
            }))
          ),
        SpanAttributes.organization
      ),
      report: OperationSpans.fn("Usage.report")(
        (organizationId, requested, groupBy) =>
          Effect.flatMap(period(requested), (within) =>
            Effect.map(ledger.report(organizationId, within, groupBy), (rows) =>
              UsageReport.fromRows({ rows, groupBy, period: within })
            )
          ),
        SpanAttributes.organization
      )
    })
  })
)
