import { Either, Schema } from "effect"
import { InvalidMoneyAmount } from "./MoneyErrors.js"

/**
 * Money is computed in integer minor units (grosze for PLN) and only rendered as a decimal number at the
 * edge (`toDecimal`), so sums never accumulate float noise.
 */

/**
 * The largest magnitude of an amount in minor units (10^15 grosze = 10 trillion PLN). Below it doubles are
 * spaced far finer than 0.01, so distinct 2-decimal amounts stay distinct and `toDecimal`/`fromDecimal`
 * round-trip exactly.
 */
export const MAX_MINOR_UNITS = 1_000_000_000_000_000

/** An integer amount in minor units (grosze), within ±`MAX_MINOR_UNITS`. */
export const MinorUnits = Schema.Int.pipe(
  Schema.between(-MAX_MINOR_UNITS, MAX_MINOR_UNITS),
  Schema.brand("MinorUnits")
).annotations({ identifier: "MinorUnits" })
export type MinorUnits = typeof MinorUnits.Type

/** The currencies the platform bills in; only PLN for now. */
export const Currency = Schema.Literal("PLN").annotations({ identifier: "Currency" })
export type Currency = typeof Currency.Type

/**
 * Renders minor units as a decimal number with at most 2 decimals (1999 → 19.99). Division is correctly
 * rounded, so the result is exactly the double the literal `19.99` denotes: no float noise. Expects an integer.
 */
export const toDecimal = (minor: number): number => {
  const decimal = minor / 100
  // Never render -0: JSON would print "0" anyway, but callers comparing with Object.is should not trip.
  return decimal === 0 ? 0 : decimal
}

/**
 * Converts a decimal amount (19.99) to integer minor units (1999); fails when it has more than 2 decimals,
 * is not finite, or is outside ±`MAX_MINOR_UNITS`.
 */
export const fromDecimal = (amount: number): Either.Either<MinorUnits, InvalidMoneyAmount> => {
  if (!Number.isFinite(amount)) return Either.left(new InvalidMoneyAmount({ amount, reason: "not_finite" }))
  const minor = Math.round(amount * 100)
  if (Math.abs(minor) > MAX_MINOR_UNITS) {
    return Either.left(new InvalidMoneyAmount({ amount, reason: "out_of_range" }))
  }
  // `amount` has at most 2 decimals exactly when it is the double nearest to minor/100.
  if (minor / 100 !== amount) {
    return Either.left(new InvalidMoneyAmount({ amount, reason: "too_many_decimals" }))
  }
  return Either.right((minor === 0 ? 0 : minor) as MinorUnits)
}
