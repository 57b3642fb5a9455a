import { Either, Schema } from "effect"
import { parsePhoneNumberFromString } from "libphonenumber-js/max"
import { InvalidPhoneNumber } from "./PhoneNumberErrors.js"

/** A phone number in E.164 form (`+48500000486`). */
export const E164 = Schema.String.pipe(Schema.pattern(/^\+[1-9][0-9]{6,14}$/), Schema.brand("E164"))
export type E164 = typeof E164.Type

/**
 * Normalises a phone number to E.164. The number must be in international form (`+` and the country
 * code; spaces, dashes and brackets are fine) and valid by libphonenumber's full metadata.
 */
export const normalize = (input: string): Either.Either<E164, InvalidPhoneNumber> => {
  const parsed = input.length <= 64 ? parsePhoneNumberFromString(input.trim()) : undefined
  return parsed !== undefined && parsed.isValid()
    ? Either.right(E164.make(parsed.number))
    : Either.left(new InvalidPhoneNumber({ input }))
}
