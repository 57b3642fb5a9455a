import { Schema } from "effect"
import { NumberType } from "./NumberPricing.js"

export class PhoneNumberNotFound extends Schema.TaggedError<PhoneNumberNotFound>()("PhoneNumberNotFound", {
  phone_number_id: Schema.Number
}) {
  override get message() {
    return `Phone number ${this.phone_number_id} not found`
  }
}

/** No orderable number of the type (or the chosen number is taken): register demand instead (409). */
export class NoInventory extends Schema.TaggedError<NoInventory>()("NoInventory", {
  number_type: NumberType,
  phone_number_id: Schema.NullOr(Schema.Number)
}) {
  override get message() {
    return this.phone_number_id === null
      ? `no_inventory: no ${this.number_type} number is available; register demand with POST /api/v1/phone-numbers/polish/request`
      : `no_inventory: number ${this.phone_number_id} is not available for ordering`
  }
}

/** The number is not held by the organization any more (already released): 409. */
export class PhoneNumberNotActive extends Schema.TaggedError<PhoneNumberNotActive>()("PhoneNumberNotActive", {
  phone_number_id: Schema.Number
}) {
  override get message() {
    return `number_not_active: phone number ${this.phone_number_id} was already released`
  }
}

/** A number already in the inventory cannot be added twice (409). */
export class PhoneNumberExists extends Schema.TaggedError<PhoneNumberExists>()("PhoneNumberExists", {
  number: Schema.String
}) {
  override get message() {
    return `number_exists: ${this.number} is already in the inventory`
  }
}

/** An order names a number of another type than the one it asks for (422 at the number). */
export class NumberTypeMismatch extends Schema.TaggedError<NumberTypeMismatch>()("NumberTypeMismatch", {
  phone_number_id: Schema.Number,
  number_type: NumberType,
  requested: NumberType
}) {
  override get message() {
    return `Phone number ${this.phone_number_id} is a ${this.number_type} number, not ${this.requested}`
  }
}

/** The input is not a valid phone number. */
export class InvalidPhoneNumber extends Schema.TaggedError<InvalidPhoneNumber>()("InvalidPhoneNumber", {
  input: Schema.String
}) {
  override get message() {
    return "phone_number must be a valid phone number in international format, e.g. +48500000486"
  }
}
