import { Schema } from "effect"
import { MinorUnits } from "../money/Money.js"

/** The kinds of Polish number the platform sells. */
export const NumberType = Schema.Literal("mobile", "landline").annotations({ identifier: "NumberType" })
export type NumberType = typeof NumberType.Type

/** The minimum (commitment) period when the configuration does not give one. */
export const DEFAULT_MINIMUM_PERIOD_MONTHS = 12

/** A fee in minor units; never negative (a price list cannot pay the customer). */
const Fee = MinorUnits.pipe(Schema.nonNegative())

/** The price of one number type, in minor units (grosze); the minimum period defaults to 12 months. */
export const NumberPricing = Schema.Struct({
  activationFee: Fee,
  monthlyFee: Fee,
  minimumPeriodMonths: Schema.optionalWith(Schema.NonNegativeInt, {
    default: () => DEFAULT_MINIMUM_PERIOD_MONTHS
  })
}).annotations({ identifier: "NumberPricing" })
export type NumberPricing = typeof NumberPricing.Type

/** The price of every number type; prices are configuration, not code. */
export const PriceList = Schema.Record({ key: NumberType, value: NumberPricing }).annotations({
  identifier: "PriceList"
})
export type PriceList = typeof PriceList.Type

/**
 * Configuration defaults used when the operator configures no prices. They are plausible Polish retail
 * figures, not a tariff: a mobile number costs no activation and 19.99 PLN a month; a landline
 * (geographic) number costs 49.00 PLN to activate and 9.99 PLN a month; both commit for 12 months.
 */
export const defaultPriceList: PriceList = {
  mobile: NumberPricing.make({
    activationFee: MinorUnits.make(0),
    monthlyFee: MinorUnits.make(1999),
    minimumPeriodMonths: DEFAULT_MINIMUM_PERIOD_MONTHS
  }),
  landline: NumberPricing.make({
    activationFee: MinorUnits.make(4900),
    monthlyFee: MinorUnits.make(999),
    minimumPeriodMonths: DEFAULT_MINIMUM_PERIOD_MONTHS
  })
}
