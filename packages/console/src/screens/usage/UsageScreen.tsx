import { DataTable } from "../../components/DataTable.js"
import { ErrorNotice, Loaded } from "../../components/Feedback.js"
import { PageHeading } from "../../components/PageHeading.js"
import { useAction } from "../../data/useAction.js"
import { useLoad } from "../../data/useLoad.js"
import { Link } from "../../routing/Link.js"
import { patchQuery } from "../../routing/QueryState.js"
import type { ScreenProps } from "../../routing/Routes.js"
import { api } from "../../session/Session.js"
import { formatCount, formatMinutes, formatMoney } from "../../text/Formats.js"
import { UsageChart } from "./UsageChart.js"
import { type DayUsage, daysOf, type Month, monthOf, periodOf, shiftMonth, usageCsv } from "./UsageSeries.js"

const monthName = (month: Month) =>
  new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${month}-01T00:00:00.000Z`)
  )

/** The report of a month by day, as the API answers it (`GET /reports/usage?group_by=day`). */
const reportOf = (month: Month, signal: AbortSignal) =>
  api.get("/api/v1/reports/usage", { query: { ...periodOf(month), group_by: "day" }, signal })

/** A row of a day report (the report's rows are days when grouped by day). */
const dayRows = (rows: ReadonlyArray<object>): ReadonlyArray<DayUsage> =>
  rows.filter((row): row is DayUsage => "day" in row)

/**
 * The organization's usage of a month (in the address: `?month=2026-11`, the current month in UTC by
 * default): its totals, calls and cost by day as a chart and as a table, and the report as a CSV file.
 */
export const UsageScreen = ({ query }: ScreenProps) => {
  const month = monthOf(query, new Date())
  const report = useLoad((signal) => reportOf(month, signal), [month])
  const download = useAction()
  const save = () =>
    download.run(async () => {
      const fresh = await reportOf(month, new AbortController().signal)
      const csv = usageCsv(dayRows(fresh.rows), fresh.totals, fresh.currency)
      const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }))
      const anchor = document.createElement("a")
      anchor.href = url
      anchor.download = `usage-${month}.csv`
      anchor.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    })
  const monthLink = (delta: number) => `usage${patchQuery(query, { month: shiftMonth(month, delta) })}`
  return (
    <>
      <PageHeading title="Usage">
        <button type="button" class="secondary" onClick={save} disabled={download.busy}>
          {download.busy ? "Preparing the report…" : "Download the report (CSV)"}
        </button>
      </PageHeading>
      {download.error === undefined ? null : <ErrorNotice error={download.error} />}
      <nav class="pager" aria-label="Months">
        <Link to={monthLink(-1)}>Previous month</Link>
        <span class="pager-position">{monthName(month)}</span>
        <Link to={monthLink(1)}>Next month</Link>
      </nav>
      <Loaded load={report} label="Loading the usage…">
        {(data) => {
          const rows = dayRows(data.rows)
          return (
            <>
              <dl class="figures">
                <div>
                  <dt>Calls</dt>
                  <dd>{formatCount(data.totals.calls)}</dd>
                </div>
                <div>
                  <dt>Minutes</dt>
                  <dd>{formatMinutes(data.totals.duration_seconds)}</dd>
                </div>
                <div>
                  <dt>Cost</dt>
                  <dd>{formatMoney(data.totals.cost_pln, data.currency)}</dd>
                </div>
              </dl>
              <UsageChart
                days={daysOf(month, rows)}
                currency={data.currency}
                caption={`Calls and cost by day, ${monthName(month)} (the table below gives every figure)`}
              />
              {rows.length === 0 ? (
                <p class="empty">No usage in {monthName(month)}.</p>
              ) : (
                <DataTable<DayUsage>
                  caption={`Usage by day, ${monthName(month)}`}
                  rows={rows}
                  rowKey={(row) => row.day}
                  columns={[
                    { header: "Day", cell: (row) => row.day },
                    { header: "Calls", cell: (row) => formatCount(row.calls) },
                    { header: "Minutes", cell: (row) => formatMinutes(row.duration_seconds) },
                    { header: "Cost", cell: (row) => formatMoney(row.cost_pln, data.currency) }
                  ]}
                />
              )}
            </>
          )
        }}
      </Loaded>
    </>
  )
}
