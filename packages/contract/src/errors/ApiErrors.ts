import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The API's error answers, one class per status. Bodies are `{detail: string}` as the spec says; the
 * classes are distinguished by `instanceof`, so they need no `_tag` on the wire. Responses are written
 * by `ErrorResponses.render`, which also sets `Retry-After` where the error carries one.
 */

/** 401: no key, an unknown key or a revoked key; checked before anything else. */
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  { detail: Schema.String },
  HttpApiSchema.annotations({ status: 401, description: "Missing, unknown or revoked API key" })
) {}

/** 402: the balance does not cover the charge. */
export class PaymentRequired extends Schema.Class<PaymentRequired>("PaymentRequired")(
  {
    detail: Schema.String,
    balance_pln: Schema.Number,
    required_pln: Schema.Number,
    top_up_pln: Schema.Number
  },
  HttpApiSchema.annotations({
    status: 402,
    description: "The balance does not cover the charge; top up first"
  })
) {}

/** 403: a permanent refusal: a number on the Do not call list (`detail` starts with `do_not_call`), or an invalid download link. */
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")(
  { detail: Schema.String },
  HttpApiSchema.annotations({
    status: 403,
    description: "Refused: the number is on the Do not call list, or the download link is invalid or expired"
  })
) {}

/** 404: no such resource in the caller's organization (another organization's resource looks the same). */
export class NotFound extends Schema.Class<NotFound>("NotFound")(
  { detail: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "Not found" })
) {}

/** 409: the request conflicts with the resource's state. */
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  { detail: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Conflicts with the current state" })
) {}

/** The body of a calling-hours refusal. */
export const CallingHoursDetail = Schema.Struct({
  code: Schema.Literal("outside_calling_hours"),
  message: Schema.String,
  retry_at: Schema.String
})

/** 409 with `Retry-After`: outside 08:00-21:00 in the recipient's local time. */
export class OutsideCallingHours extends Schema.Class<OutsideCallingHours>("OutsideCallingHoursResponse")(
  { detail: CallingHoursDetail },
  HttpApiSchema.annotations({
    status: 409,
    description:
      "Outside 08:00-21:00 in the recipient's local time; `Retry-After` gives the seconds until `detail.retry_at`"
  })
) {
  /** Seconds for the `Retry-After` header (not part of the body). */
  retryAfterSeconds = 0

  /** The refusal with its `Retry-After` seconds. */
  static withRetryAfter(
    detail: typeof CallingHoursDetail.Type,
    retryAfterSeconds: number
  ): OutsideCallingHours {
    const error = new OutsideCallingHours({ detail })
    error.retryAfterSeconds = retryAfterSeconds
    return error
  }
}

/** 429 with `Retry-After`: every outbound channel is busy. */
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(
  { detail: Schema.String },
  HttpApiSchema.annotations({
    status: 429,
    description: "Every outbound channel of the organization is busy; wait `Retry-After` seconds"
  })
) {
  /** Seconds for the `Retry-After` header (not part of the body). */
  retryAfterSeconds = 30

  /** The refusal with its `Retry-After` seconds. */
  static withRetryAfter(detail: string, retryAfterSeconds: number): TooManyRequests {
    const error = new TooManyRequests({ detail })
    error.retryAfterSeconds = retryAfterSeconds
    return error
  }
}

/** One failing field of a request, as FastAPI reports it. */
export const ValidationIssue = Schema.Struct({
  loc: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  msg: Schema.String,
  type: Schema.String
})
export type ValidationIssue = typeof ValidationIssue.Type

/** 422: every failing field of the request, `loc` starting at body, query, path or header. */
export class ValidationError extends Schema.Class<ValidationError>("HTTPValidationError")(
  { detail: Schema.Array(ValidationIssue) },
  HttpApiSchema.annotations({ status: 422, description: "Validation error" })
) {}

/** 413: the body is larger than the operation takes; answered as soon as the limit is crossed. */
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  { detail: Schema.String },
  HttpApiSchema.annotations({ status: 413, description: "The body is larger than the operation takes" })
) {}

/** 415: the body's media type is not one the operation takes; answered before the body is read. */
export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  { detail: Schema.String },
  HttpApiSchema.annotations({
    status: 415,
    description: "The body's media type is not one the operation takes"
  })
) {}

/** 503: a dependency (the voice runtime, the language model) is unavailable; retrying later may work. */
export class ServiceUnavailable extends Schema.Class<ServiceUnavailable>("ServiceUnavailable")(
  { detail: Schema.String },
  HttpApiSchema.annotations({
    status: 503,
    description: "A dependency is unavailable; retry later (after `Retry-After` seconds when it is given)"
  })
) {
  /** Seconds for the `Retry-After` header when the dependency said when to try again (not part of the body). */
  retryAfterSeconds: number | null = null

  /** The refusal with its `Retry-After` seconds. */
  static withRetryAfter(detail: string, retryAfterSeconds: number): ServiceUnavailable {
    const error = new ServiceUnavailable({ detail })
    error.retryAfterSeconds = retryAfterSeconds
    return error
  }
}

/** Every error class the API answers with; each carries its status in its `HttpApiSchema` annotation. */
const classes = [
  Unauthorized,
  PaymentRequired,
  Forbidden,
  NotFound,
  Conflict,
  OutsideCallingHours,
  TooManyRequests,
  ValidationError,
  ServiceUnavailable,
  PayloadTooLarge,
  UnsupportedMediaType
] as const

/** An instance of one of the API's error classes. */
export type ApiError = InstanceType<(typeof classes)[number]>

/** True for an instance of one of the API's error classes. */
export const isApiError = (u: unknown): u is ApiError => classes.some((c) => u instanceof c)

/** The status an API error answers with: the one annotated on its class. */
export const statusOf = (error: ApiError): number =>
  HttpApiSchema.getStatusError(error.constructor as (typeof classes)[number])
