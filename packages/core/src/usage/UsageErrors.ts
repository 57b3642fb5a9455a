import { Schema } from "effect"

/** A usage period that ends before it starts (or is empty): a validation error of the request (422). */
export class InvalidReportingPeriod extends Schema.TaggedError<InvalidReportingPeriod>()(
  "InvalidReportingPeriod",
  {
    from: Schema.DateFromSelf,
    to: Schema.DateFromSelf,
    /** The bound the caller gave and should change: `to` when only `to` was given, else `from`. */
    field: Schema.Literal("from", "to")
  }
) {
  override get message() {
    return `from (${this.from.toISOString()}) must be before to (${this.to.toISOString()})`
  }
}

/**
 * A usage period longer than a year (from `from` to the same instant a calendar year later): a
 * validation error of the request (422). Reports over longer spans are asked for a year at a time.
 */
export class ReportingPeriodTooLong extends Schema.TaggedError<ReportingPeriodTooLong>()(
  "ReportingPeriodTooLong",
  {
    from: Schema.DateFromSelf,
    to: Schema.DateFromSelf,
    /** The bound to change: `to` when it was given, else `from`. */
    field: Schema.Literal("from", "to")
  }
) {
  override get message() {
    return `The period from ${this.from.toISOString()} to ${this.to.toISOString()} is longer than a year; ask for at most a year at a time`
  }
}
