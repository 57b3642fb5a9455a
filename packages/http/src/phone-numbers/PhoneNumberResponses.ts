import type { PhoneNumber, PhoneNumbers, PriceQuote, ReleaseQuote } from "@voice-agent-platform/core"
import { Money } from "@voice-agent-platform/core"
import type {
  NumberRequestResponse,
  PhoneNumberChargeResponse,
  PhoneNumberResponse,
  PriceQuoteResponse,
  ReleaseQuoteResponse
} from "@voice-agent-platform/contract/phone-numbers/PhoneNumbersApi.js"

/** A phone number in the API's shape. */
export const phoneNumberResponse = (number: PhoneNumber.PhoneNumber): typeof PhoneNumberResponse.Type => ({
  id: number.id,
  number: number.number,
  number_type: number.number_type,
  status: number.status,
  activated_at: number.activated_at,
  released_at: number.released_at,
  created_at: number.created_at
})

/** A price quote with its amounts in PLN. */
export const priceQuoteResponse = (quote: PriceQuote.PriceQuote): typeof PriceQuoteResponse.Type => ({
  number_type: quote.number_type,
  phone_number_id: quote.phone_number_id,
  activation_fee_pln: Money.toDecimal(quote.activation_fee),
  monthly_fee_pln: Money.toDecimal(quote.monthly_fee),
  price_pln: Money.toDecimal(quote.price),
  balance_pln: Money.toDecimal(quote.balance),
  sufficient: quote.sufficient,
  top_up_pln: Money.toDecimal(quote.top_up)
})

/** An ordered or released number with the amount debited. */
export const chargeResponse = (
  charged: PhoneNumbers.Charged<PhoneNumber.PhoneNumber>
): typeof PhoneNumberChargeResponse.Type => ({
  phone_number: phoneNumberResponse(charged.value),
  charged_pln: Money.toDecimal(charged.charged)
})

/** A demand request in the API's shape. */
export const numberRequestResponse = (
  request: PhoneNumber.NumberRequest
): typeof NumberRequestResponse.Type => ({
  id: request.id,
  end_user_id: request.end_user_id,
  consent: request.consent,
  note: request.note,
  number_type: request.number_type,
  status: request.status,
  created_at: request.created_at
})

/** A release quote with its fee in PLN. */
export const releaseQuoteResponse = (quote: ReleaseQuote.ReleaseQuote): typeof ReleaseQuoteResponse.Type => ({
  phone_number_id: quote.phone_number_id,
  fee_pln: Money.toDecimal(quote.fee),
  periods: quote.periods,
  commitment_until: quote.commitment_until
})
