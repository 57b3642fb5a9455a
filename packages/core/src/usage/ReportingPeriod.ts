import { DateTime, Either } from "effect"
import { InvalidReportingPeriod, ReportingPeriodTooLong } from "./UsageErrors.js"

/** A period of the billing ledger: `from` inclusive, `to` exclusive. */
export interface ReportingPeriod {
  readonly from: Date
  readonly to: Date
}

/** The bounds a caller may give; each one left out takes the current month's. */
export interface RequestedPeriod {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
}

/** The UTC calendar month that contains `now`: its first instant up to the next month's first instant. */
export const calendarMonthUtc = (now: Date): ReportingPeriod => {
  const start = DateTime.startOf(DateTime.unsafeMake(now), "month")
  return { from: DateTime.toDate(start), to: DateTime.toDate(DateTime.add(start, { months: 1 })) }
}

/** The latest end a period starting at `from` may have: the same instant a calendar year later (UTC). */
export const latestEnd = (from: Date): Date =>
  DateTime.toDate(DateTime.add(DateTime.unsafeMake(from), { years: 1 }))

/**
 * The period a usage request asks for: a missing bound defaults to that of the current UTC calendar month
 * (so no bounds at all is this month); the result must satisfy `from < to` and span at most a year
 * (`to <= latestEnd(from)`), so that no report reads an unbounded stretch of the ledger.
 */
export const resolve = (
  requested: RequestedPeriod,
  now: Date
): Either.Either<ReportingPeriod, InvalidReportingPeriod | ReportingPeriodTooLong> => {
  const month = calendarMonthUtc(now)
  const from = requested.from ?? month.from
  const to = requested.to ?? month.to
  if (from.getTime() >= to.getTime()) {
    const field = requested.from === undefined && requested.to !== undefined ? "to" : "from"
    return Either.left(new InvalidReportingPeriod({ from, to, field }))
  }
  if (to.getTime() > latestEnd(from).getTime()) {
    return Either.left(
      new ReportingPeriodTooLong({ from, to, field: requested.to !== undefined ? "to" : "from" })
    )
  }
  return Either.right({ from, to })
}
