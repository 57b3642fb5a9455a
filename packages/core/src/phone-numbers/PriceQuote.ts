import type { NumberPricing, NumberType } from "./NumberPricing.js"

/**
 * What ordering a number costs now, compared with the organization's balance. Every amount is in minor
 * units (grosze); the HTTP layer renders the `_pln` fields with `Money.toDecimal`.
 */
export interface PriceQuote {
  readonly number_type: NumberType
  /** The inventory number quoted, or null for a quote by number type. */
  readonly phone_number_id: number | null
  readonly activation_fee: number
  readonly monthly_fee: number
  /** Activation fee plus the first month, both debited when the number is ordered. */
  readonly price: number
  /** May be negative. */
  readonly balance: number
  readonly sufficient: boolean
  /** What must be topped up before ordering: `max(0, price - balance)`. */
  readonly top_up: number
}

/** Quotes a number: `price = activation + first month`, `top_up = max(0, price - balance)`. */
export const compute = (input: {
  readonly numberType: NumberType
  readonly phoneNumberId: number | null
  readonly pricing: NumberPricing
  readonly balance: number
}): PriceQuote => {
  const price = input.pricing.activationFee + input.pricing.monthlyFee
  const top_up = Math.max(0, price - input.balance)
  return {
    number_type: input.numberType,
    phone_number_id: input.phoneNumberId,
    activation_fee: input.pricing.activationFee,
    monthly_fee: input.pricing.monthlyFee,
    price,
    balance: input.balance,
    sufficient: top_up === 0,
    top_up
  }
}
