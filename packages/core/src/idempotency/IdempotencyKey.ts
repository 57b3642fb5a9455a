import { Schema } from "effect"

/** Key length bounds, as Stripe has them: long enough for a UUID or a client's own composite key. */
export const keyLength = { min: 1, max: 255 } as const

/**
 * Printable ASCII (0x20-0x7E) that neither starts nor ends with a space: header values lose outer
 * whitespace in transit, so such a key could never arrive as it was sent.
 */
export const keyPattern = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/** A client's `Idempotency-Key`: 1..255 printable ASCII characters, compared exactly as sent. */
export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(keyLength.min),
  Schema.maxLength(keyLength.max),
  Schema.pattern(keyPattern),
  Schema.brand("IdempotencyKey")
).annotations({
  identifier: "IdempotencyKey",
  description: "1 to 255 printable ASCII characters, e.g. a UUID",
  message: () => ({
    message: `Idempotency-Key must be ${keyLength.min} to ${keyLength.max} printable ASCII characters, without leading or trailing spaces`,
    override: true
  })
})
export type IdempotencyKey = typeof IdempotencyKey.Type
