import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"
import { NumberType } from "./NumberPricing.js"

export const PhoneNumberId = Schema.Int.pipe(Schema.positive(), Schema.brand("PhoneNumberId"))
export type PhoneNumberId = typeof PhoneNumberId.Type

/**
 * `available`: in the operator's inventory, orderable; `active`: ordered by an organization;
 * `released`: given back (kept for history, never reused by the same record).
 */
export const PhoneNumberStatus = Schema.Literal("available", "active", "released")
export type PhoneNumberStatus = typeof PhoneNumberStatus.Type

/** A Polish phone number, in the inventory or held by an organization. */
export const PhoneNumber = Schema.Struct({
  id: PhoneNumberId,
  number: Schema.String.annotations({ description: "E.164" }),
  number_type: NumberType,
  status: PhoneNumberStatus,
  organization_id: Schema.NullOr(OrganizationId),
  activated_at: Schema.NullOr(Schema.DateFromSelf),
  released_at: Schema.NullOr(Schema.DateFromSelf),
  created_at: Schema.DateFromSelf
})
export type PhoneNumber = typeof PhoneNumber.Type

export const NumberRequestId = Schema.Int.pipe(Schema.positive(), Schema.brand("NumberRequestId"))
export type NumberRequestId = typeof NumberRequestId.Type

/** Demand for a Polish number registered when none is available; the number is then ordered from an operator. */
export const NumberRequest = Schema.Struct({
  id: NumberRequestId,
  organization_id: OrganizationId,
  /** The organization's own identifier of its end user. */
  end_user_id: Schema.Int,
  consent: Schema.Boolean,
  note: Schema.String,
  number_type: Schema.NullOr(NumberType),
  status: Schema.Literal("open", "fulfilled", "canceled"),
  created_at: Schema.DateFromSelf
})
export type NumberRequest = typeof NumberRequest.Type
