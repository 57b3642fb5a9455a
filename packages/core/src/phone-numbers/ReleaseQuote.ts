import { DateTime } from "effect"

/**
 * What releasing a number costs now: the months of its minimum period not yet paid. Months are billed in
 * advance, so the billing period that contains `now` is already paid and is not counted again.
 */
export interface ReleaseQuote {
  readonly phone_number_id: number
  /** `periods × monthly fee`, in minor units (grosze). */
  readonly fee: number
  /** Billing periods that start after `now` and before `commitment_until`. */
  readonly periods: number
  /** The end of the minimum period: activation + minimum months (calendar months in Europe/Warsaw). */
  readonly commitment_until: Date
}

/** Billing months are calendar months in Poland, whatever the organization's own time zone. */
export const BILLING_TIME_ZONE = "Europe/Warsaw"

let billingZone: DateTime.TimeZone | undefined
// Creating a named zone builds an Intl.DateTimeFormat: do it once, on first use.
const getBillingZone = (): DateTime.TimeZone =>
  (billingZone ??= DateTime.zoneUnsafeMakeNamed(BILLING_TIME_ZONE))

/**
 * The start of billing period `k` (k = 0 is the activation itself): activation + k calendar months in
 * Europe/Warsaw, always computed from the activation date, never chained (31 Jan → 28 Feb → 31 Mar).
 *
 * `DateTime.add` keeps the wall-clock time and clamps the day to the month's end. A wall-clock time that
 * falls into the spring-forward gap resolves to the later offset's reading of it (02:30 → 03:30 CEST, the
 * same instant as 02:30 CET); an ambiguous autumn time resolves to its first occurrence (CEST).
 */
export const periodStart = (activatedAt: Date, k: number): Date => {
  // Period 0 is the activation instant itself; re-resolving its wall-clock time could move an activation
  // made during the autumn repeated hour to the hour's first occurrence.
  if (k === 0) return new Date(activatedAt.getTime())
  const activation = DateTime.unsafeMakeZoned(activatedAt, { timeZone: getBillingZone() })
  // toDateUtc: `toDate` of a zoned value would give its wall-clock reading as if it were UTC.
  return DateTime.toDateUtc(DateTime.add(activation, { months: k }))
}

/** The end of the minimum period: activation + `minimumPeriodMonths` calendar months in Europe/Warsaw. */
export const commitmentUntil = (activatedAt: Date, minimumPeriodMonths: number): Date =>
  periodStart(activatedAt, minimumPeriodMonths)

/**
 * Quotes releasing a number at `now`: `periods` counts billing periods k = 1..min-1 starting strictly after
 * `now` (period 0 was paid on ordering, and a period starting exactly at `now` contains it, so it is paid
 * too); `fee = periods × monthlyFee`; both are 0 once `commitment_until` is reached.
 */
export const compute = (input: {
  readonly phoneNumberId: number
  readonly activatedAt: Date
  readonly minimumPeriodMonths: number
  readonly monthlyFee: number
  readonly now: Date
}): ReleaseQuote => {
  const minimum = Math.max(0, Math.trunc(input.minimumPeriodMonths))
  const now = input.now.getTime()
  // Period starts strictly increase with k, so binary-search the first k in 1..minimum starting after now
  // (k = minimum is commitment_until itself, which ends the search when the commitment has passed).
  let low = 1
  let high = minimum
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (periodStart(input.activatedAt, middle).getTime() > now) high = middle
    else low = middle + 1
  }
  const periods = minimum === 0 ? 0 : minimum - low
  return {
    phone_number_id: input.phoneNumberId,
    fee: periods * input.monthlyFee,
    periods,
    commitment_until: commitmentUntil(input.activatedAt, minimum)
  }
}
