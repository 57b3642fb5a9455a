import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Money from "@voice-agent-platform/core/money/Money.js"
import * as UsageRecord from "@voice-agent-platform/core/usage/UsageRecord.js"
import * as UsageReport from "@voice-agent-platform/core/usage/UsageReport.js"
import { Schema } from "effect"
import { Authentication } from "../middleware/Authentication.js"
import { PageOf, PageParams } from "../shared/Pagination.js"
import { InstantParam, Timestamp } from "../shared/Timestamp.js"

/** `from` (inclusive) and `to` (exclusive); a missing bound is that of the current UTC calendar month. */
const PeriodParams = {
  from: Schema.optionalWith(InstantParam, { exact: true }).annotations({
    description:
      "Start of the period, inclusive (ISO 8601 with a timezone); default: the first instant of the current calendar month in UTC"
  }),
  to: Schema.optionalWith(InstantParam, { exact: true }).annotations({
    description:
      "End of the period, exclusive (ISO 8601 with a timezone); default: the first instant of the next calendar month in UTC"
  })
}

/** The query of the usage totals. */
export const UsageQuery = Schema.Struct(PeriodParams)

/** The query of the usage lines: the period and the page. */
export const UsageRunsQuery = Schema.Struct({ ...PageParams, ...PeriodParams })

/** The query of the usage report: the period and the grouping. */
export const UsageReportQuery = Schema.Struct({
  ...PeriodParams,
  group_by: Schema.optionalWith(
    // one issue, not one per literal, when it is neither
    UsageReport.UsageGrouping.annotations({
      message: () => ({ message: "Input should be 'day' or 'agent'", override: true })
    }),
    { default: () => "day", exact: true }
  ).annotations({ description: "`day` (UTC calendar days, the default) or `agent`" })
})

const usageTotals = {
  calls: Schema.Int.annotations({ description: "Finished calls (`call` lines); `cost_pln` sums every line" }),
  duration_seconds: Schema.Int,
  cost_pln: Schema.Number
}

/** The totals of a period of the billing ledger. */
export const UsageSummaryResponse = Schema.Struct({
  from: Timestamp,
  to: Timestamp,
  ...usageTotals,
  currency: Money.Currency
}).annotations({ identifier: "UsageSummary" })

/**
 * One line of the billing ledger: a finished call (`call`), the analysis of one (`analysis`), or a
 * generation of an agent's improvement suggestions (`improvements`, of no call), or the writing of an
 * agent's prompt from a call script (`prompt`, of no call).
 */
export const UsageRunResponse = Schema.Struct({
  workflow_run_id: Schema.NullOr(Schema.Int).annotations({
    description: "The call charged; null only for an `improvements` or a `prompt` line"
  }),
  workflow_id: Schema.Int,
  kind: UsageRecord.UsageKind.annotations({
    description:
      "`call`: a finished call, its talk time and its conversation's language-model tokens (one per call); `analysis`: the language model's reading of a call after it ended (one per call); `improvements`: a generation of the agent's improvement suggestions; `prompt`: the language model's writing of the agent's prompt from a call script (`generate_with_ai`)"
  }),
  mode: Schema.String,
  duration_seconds: Schema.Int.annotations({ description: "Talk time; 0 on lines other than `call`" }),
  cost_pln: Schema.Number,
  prompt_tokens: Schema.Int.annotations({ description: "Language-model prompt tokens the line charges" }),
  completion_tokens: Schema.Int.annotations({
    description: "Language-model completion tokens the line charges"
  }),
  currency: Money.Currency,
  recorded_at: Timestamp
}).annotations({ identifier: "UsageRun" })

/** The usage of one UTC day. */
export const UsageReportDayRow = Schema.Struct({
  day: Schema.String.annotations({ description: "UTC calendar day, YYYY-MM-DD" }),
  ...usageTotals
}).annotations({ identifier: "UsageReportDayRow" })

/** The usage of one agent. */
export const UsageReportAgentRow = Schema.Struct({
  workflow_id: Schema.Int,
  ...usageTotals
}).annotations({ identifier: "UsageReportAgentRow" })

/** A usage report: rows grouped by day or by agent, and the totals of the period. */
export const UsageReportResponse = Schema.Struct({
  from: Timestamp,
  to: Timestamp,
  group_by: UsageReport.UsageGrouping,
  currency: Money.Currency,
  rows: Schema.Array(Schema.Union(UsageReportDayRow, UsageReportAgentRow)),
  totals: Schema.Struct(usageTotals).annotations({ identifier: "UsageTotals" })
}).annotations({ identifier: "UsageReport" })

const periodDescription =
  "`from` is inclusive and `to` exclusive, ISO 8601 with a timezone (send `+` as `%2B`); each bound left out is that of the current calendar month in UTC, and `from` must be before `to` and the period at most a year long (`to` no later than `from` plus one calendar year; else 422 at the bound to change)."

/** Usage and reports from the billing ledger, at the new and the legacy addresses. */
export class UsageApi extends HttpApiGroup.make("usage")
  .add(
    HttpApiEndpoint.get("summary", "/usage")
      .setUrlParams(UsageQuery)
      .addSuccess(UsageSummaryResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get usage",
          description: `The organization's calls, their duration and their cost over a period, with the period echoed: \`calls\` counts finished calls, \`cost_pln\` is every ledger line's (calls, their analyses, improvement suggestions). ${periodDescription} Deleting a call does not change its usage.`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("runs", "/usage/runs")
      .setUrlParams(UsageRunsQuery)
      .addSuccess(PageOf(UsageRunResponse, "UsageRunPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List usage by call",
          description: `The billing ledger's lines of the period, newest first: one \`call\` line per finished call (its talk time and its conversation's language-model tokens), one \`analysis\` line per call the language model analysed after it ended, and one \`improvements\` line per generation of an agent's improvement suggestions (of no call: \`workflow_run_id\` null). Each line says the tokens it charges. ${periodDescription}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("report", "/reports/usage")
      .setUrlParams(UsageReportQuery)
      .addSuccess(UsageReportResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Usage report",
          description: `The period's usage grouped by UTC calendar day (\`group_by=day\`, the default; days in ascending order) or by agent (\`group_by=agent\`; by agent number), with the totals of the period. Groups without usage are left out; the rows add up to the totals. ${periodDescription}`
        })
      )
  )
  .add(
    HttpApiEndpoint.get("legacyCurrentPeriod", "/organizations/usage/current-period")
      .addSuccess(UsageSummaryResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get usage of the current period (legacy)",
          description:
            "Earlier address of `GET /usage` for the current calendar month in UTC; it keeps working unchanged. New integrations use `GET /usage`."
        })
      )
      .annotate(OpenApi.Deprecated, true)
  )
  .add(
    HttpApiEndpoint.get("legacyRuns", "/organizations/usage/runs")
      .setUrlParams(UsageRunsQuery)
      .addSuccess(PageOf(UsageRunResponse, "UsageRunPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List usage by call (legacy)",
          description:
            "Earlier address of `GET /usage/runs`, answering exactly what it does (the same lines and fields). New integrations use `GET /usage/runs`."
        })
      )
      .annotate(OpenApi.Deprecated, true)
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
