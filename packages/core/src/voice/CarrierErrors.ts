import { Schema } from "effect"

/**
 * Why a carrier (Twilio) did not do what was asked. Every reason is written by the adapter for people to
 * read: it never holds the carrier's credentials (the auth token), and names the carrier's own words only
 * where they are identifiers (an HTTP status, an error code).
 */

/**
 * The carrier could not be reached, failed (5xx), or answered something that is not what its API sends.
 * `outcome_unknown` is true when the request may have reached the carrier and been carried out all the
 * same (a 5xx, a connection dropped after it was sent, a 2xx answer that could not be read): for a dial,
 * the call may exist and be ringing. False when it certainly was not (the connection was refused, 429).
 */
export class CarrierUnavailable extends Schema.TaggedError<CarrierUnavailable>()("CarrierUnavailable", {
  reason: Schema.String,
  outcome_unknown: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {
  override get message() {
    return `carrier_unavailable: ${this.reason}`
  }
}

/**
 * The carrier refused the request for what it holds (a 4xx: a number it will not call, a call that is
 * over, credentials it does not accept). Trying the same request again fails the same way.
 */
export class CarrierRefused extends Schema.TaggedError<CarrierRefused>()("CarrierRefused", {
  reason: Schema.String,
  /** The HTTP status of the refusal. */
  status: Schema.Int,
  /** The carrier's own error code (Twilio's `code`, for example 21211), when it gave one. */
  code: Schema.NullOr(Schema.Int)
}) {
  override get message() {
    return `carrier_refused: ${this.reason}`
  }
}

/** The carrier did not answer within the request's deadline (the request may have been carried out). */
export class CarrierDeadline extends Schema.TaggedError<CarrierDeadline>()("CarrierDeadline", {
  timeout_ms: Schema.NonNegativeInt
}) {
  override get message() {
    return `carrier_deadline: the carrier did not answer within ${this.timeout_ms} ms`
  }
}

/** A webhook that claims to come from the carrier has no signature, or one that does not match. */
export class InvalidCarrierSignature extends Schema.TaggedError<InvalidCarrierSignature>()(
  "InvalidCarrierSignature",
  { reason: Schema.Literal("missing", "mismatch") }
) {
  override get message() {
    return `invalid_carrier_signature: the request's signature is ${this.reason === "missing" ? "missing" : "wrong"}`
  }
}

/** A webhook's body is not what the carrier sends (a missing or malformed field). */
export class InvalidCarrierCallback extends Schema.TaggedError<InvalidCarrierCallback>()(
  "InvalidCarrierCallback",
  { reason: Schema.String }
) {
  override get message() {
    return `invalid_carrier_callback: ${this.reason}`
  }
}

/** Every way a request to the carrier's API can fail. */
export type CarrierRequestError = CarrierUnavailable | CarrierRefused | CarrierDeadline

/** Whether trying the same request again later may work: an unreachable carrier, or one that ran out of time. */
export const isTransient = (error: CarrierRequestError): boolean =>
  error._tag === "CarrierUnavailable" || error._tag === "CarrierDeadline"

/**
 * Whether the request may have been carried out although it failed: a deadline passed or the answer was
 * lost or unreadable. A dial failing so is not a refusal: the call may be ringing (`CarrierDialOutcome`).
 * A refusal (4xx) and an unreachable carrier are definite: nothing was done.
 */
export const outcomeUnknown = (error: CarrierRequestError): boolean =>
  error._tag === "CarrierDeadline" || (error._tag === "CarrierUnavailable" && error.outcome_unknown)
