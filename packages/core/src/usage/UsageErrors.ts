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
