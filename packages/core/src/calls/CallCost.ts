import { MinorUnits } from "../money/Money.js"
import type { CallRate } from "./CallRates.js"

/**
 * What a call costs. A duration is kept in whole seconds, a started second counted; the bill is the
 * duration rounded up to whole billing increments (`CallRate.increment_seconds`) times the per-minute rate,
 * rounded up to a whole grosz. A call nobody answered lasts 0 seconds and costs nothing.
 */

/** A reported duration as the run and the ledger keep it: whole seconds, rounded up; negative or non-finite is 0. */
export const wholeSeconds = (reported: number): number =>
  Number.isFinite(reported) && reported > 0 ? Math.ceil(reported) : 0

/** The seconds billed: the whole-second duration rounded up to a multiple of the billing increment. */
export const billedSeconds = (reported: number, incrementSeconds: number): number =>
  Math.ceil(wholeSeconds(reported) / incrementSeconds) * incrementSeconds

/** The price of a call of `reported` seconds at `rate`, in grosze (rounded up to a whole grosz). */
export const compute = (reported: number, rate: CallRate): MinorUnits =>
  MinorUnits.make(Math.ceil((billedSeconds(reported, rate.increment_seconds) * rate.per_minute) / 60))
