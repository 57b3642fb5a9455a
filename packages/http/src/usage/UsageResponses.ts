import type { Usage, UsageRecord, UsageReport, UsageStore } from "@voice-agent-platform/core"
import { Money } from "@voice-agent-platform/core"
import type {
  UsageReportAgentRow,
  UsageReportDayRow,
  UsageReportResponse,
  UsageRunResponse,
  UsageSummaryResponse
} from "@voice-agent-platform/contract/usage/UsageApi.js"

const currency = "PLN" as const

const totalsResponse = (totals: UsageStore.UsageTotals) => ({
  calls: totals.calls,
  duration_seconds: totals.duration_seconds,
  cost_pln: Money.toDecimal(totals.cost)
})

/** The totals of a period, with the period. */
export const summaryResponse = (summary: Usage.UsageSummary): typeof UsageSummaryResponse.Type => ({
  from: summary.period.from,
  to: summary.period.to,
  ...totalsResponse(summary.totals),
  currency
})

/** A ledger line in the API's shape. */
export const runResponse = (line: UsageRecord.UsageRecord): typeof UsageRunResponse.Type => ({
  workflow_run_id: line.run_id,
  workflow_id: line.agent_id,
  kind: line.kind,
  mode: line.mode,
  duration_seconds: line.duration_seconds,
  cost_pln: Money.toDecimal(line.cost),
  prompt_tokens: line.prompt_tokens,
  completion_tokens: line.completion_tokens,
  currency: line.currency,
  recorded_at: line.recorded_at
})

const rowResponse = (
  row: UsageReport.UsageReportRow
): typeof UsageReportDayRow.Type | typeof UsageReportAgentRow.Type =>
  row.group === "day"
    ? { day: row.day, ...totalsResponse(row) }
    : { workflow_id: row.agent_id, ...totalsResponse(row) }

/** A usage report in the API's shape. */
export const reportResponse = (report: UsageReport.UsageReport): typeof UsageReportResponse.Type => ({
  from: report.period.from,
  to: report.period.to,
  group_by: report.group_by,
  currency,
  rows: report.rows.map(rowResponse),
  totals: totalsResponse(report.totals)
})
