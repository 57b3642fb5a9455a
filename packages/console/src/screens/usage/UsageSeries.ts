// The usage screen's rules: which month the address shows, its period as the API takes it, every day of
// it (the report leaves days without usage out), the chart's scale, and the report as CSV.

/** A month, `YYYY-MM`. */
export type Month = string

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/

/** The month a query asks for (`month=2026-11`), else the current month in UTC. */
export const monthOf = (query: URLSearchParams, now: Date): Month => {
  const asked = query.get("month") ?? ""
  return monthPattern.test(asked) ? asked : now.toISOString().slice(0, 7)
}

/** The month `delta` months from `month` (`2026-01`, -1 → `2025-12`). */
export const shiftMonth = (month: Month, delta: number): Month => {
  const date = new Date(`${month}-01T00:00:00.000Z`)
  date.setUTCMonth(date.getUTCMonth() + delta)
  return date.toISOString().slice(0, 7)
}

/** The month's period as the API takes it: its first instant (inclusive) to the next month's (exclusive). */
export const periodOf = (month: Month): { readonly from: string; readonly to: string } => ({
  from: `${month}-01T00:00:00.000Z`,
  to: `${shiftMonth(month, 1)}-01T00:00:00.000Z`
})

/** A day's usage as the report answers it. */
export interface DayUsage {
  readonly day: string
  readonly calls: number
  readonly duration_seconds: number
  readonly cost_pln: number
}

/** Every day of the month in order, with the report's figures, 0 for a day the report left out. */
export const daysOf = (month: Month, rows: ReadonlyArray<DayUsage>): ReadonlyArray<DayUsage> => {
  const byDay = new Map(rows.map((row) => [row.day, row]))
  const days: Array<DayUsage> = []
  const date = new Date(`${month}-01T00:00:00.000Z`)
  while (date.toISOString().slice(0, 7) === month) {
    const day = date.toISOString().slice(0, 10)
    days.push(byDay.get(day) ?? { day, calls: 0, duration_seconds: 0, cost_pln: 0 })
    date.setUTCDate(date.getUTCDate() + 1)
  }
  return days
}

/**
 * The top of a chart's scale for values up to `max`: a round number (1, 2 or 5 times a power of ten) at
 * least `max`, so the axis reads well; 1 when there is nothing.
 */
export const scaleTop = (max: number): number => {
  if (!Number.isFinite(max) || max <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

/**
 * One CSV cell (RFC 4180): a number as written; text quoted when it holds a comma, a quote or a line
 * break (quotes doubled), and a text starting with `=`, `+`, `-`, `@`, a tab or a carriage return
 * prefixed with `'`, so a spreadsheet opening the file never reads it as a formula.
 */
export const csvCell = (value: string | number): string => {
  if (typeof value === "number") return String(value)
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The report by day as CSV: a header, a line per day with usage, and the period's totals. */
export const usageCsv = (
  rows: ReadonlyArray<DayUsage>,
  totals: Omit<DayUsage, "day">,
  currency: string
): string => {
  const line = (day: string, usage: Omit<DayUsage, "day">) =>
    [
      csvCell(day),
      csvCell(usage.calls),
      csvCell(usage.duration_seconds),
      usage.cost_pln.toFixed(2),
      csvCell(currency)
    ].join(",")
  return [
    "day,calls,duration_seconds,cost,currency",
    ...rows.map((row) => line(row.day, row)),
    line("total", totals)
  ]
    .map((text) => `${text}\r\n`)
    .join("")
}
