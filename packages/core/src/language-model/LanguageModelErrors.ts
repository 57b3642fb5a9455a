import { Schema } from "effect"

/**
 * Why a language model gave no answer. Every reason is written by the adapter for people to read: it
 * never holds the provider's key, and names the provider's own words only where they are safe to show.
 */

/** The model could not be reached, failed (5xx), or answered something that is not a reply (malformed, too big). */
export class ModelUnavailable extends Schema.TaggedError<ModelUnavailable>()("ModelUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `model_unavailable: ${this.reason}`
  }
}

/** The provider is rate limiting this deployment; it may say after how long to try again. */
export class ModelRateLimited extends Schema.TaggedError<ModelRateLimited>()("ModelRateLimited", {
  reason: Schema.String,
  /** The provider's `Retry-After` (or equivalent), in milliseconds; null when it said nothing. */
  retry_after_ms: Schema.NullOr(Schema.NonNegativeInt)
}) {
  override get message() {
    return `model_rate_limited: ${this.reason}`
  }
}

/** The provider refused the request for what it holds (a content policy, a bad request). */
export class ModelRefused extends Schema.TaggedError<ModelRefused>()("ModelRefused", {
  reason: Schema.String
}) {
  override get message() {
    return `model_refused: ${this.reason}`
  }
}

/** The conversation does not fit the model's context window. */
export class ModelInputTooLong extends Schema.TaggedError<ModelInputTooLong>()("ModelInputTooLong", {
  reason: Schema.String
}) {
  override get message() {
    return `model_input_too_long: ${this.reason}`
  }
}

/** The model did not finish within its deadline (`LLM_TIMEOUT_MS`). */
export class ModelDeadline extends Schema.TaggedError<ModelDeadline>()("ModelDeadline", {
  timeout_ms: Schema.NonNegativeInt
}) {
  override get message() {
    return `model_deadline: the model did not answer within ${this.timeout_ms} ms`
  }
}

/** Every way a model request can fail. */
export type LanguageModelError =
  ModelUnavailable | ModelRateLimited | ModelRefused | ModelInputTooLong | ModelDeadline

/**
 * Whether trying the same request again later may work: an unreachable or rate-limited model, or one that
 * ran out of time. A refusal or an input too long fails the same way again.
 */
export const isTransient = (error: LanguageModelError): boolean =>
  error._tag === "ModelUnavailable" || error._tag === "ModelRateLimited" || error._tag === "ModelDeadline"
