import type { RetryableOutcome } from "./Campaign.js"

/** When and how often a contact is tried again. */
export interface RetryPolicy {
  readonly max_attempts: number
  readonly retry_delay_seconds: number
  readonly retry_on: ReadonlyArray<RetryableOutcome>
}

/** The defaults of `retry` at campaign creation: one attempt, an hour apart, on every retryable end. */
export const defaults: RetryPolicy = {
  max_attempts: 1,
  retry_delay_seconds: 3600,
  retry_on: ["busy", "no_answer", "failed"]
}

/** How an attempt (a run) ended. */
export type AttemptEnd = "completed" | "busy" | "no_answer" | "failed" | "canceled"

/** What becomes of a contact after an attempt. */
export type AfterAttempt =
  | { readonly _tag: "Completed" }
  | { readonly _tag: "Retry"; readonly at: Date; readonly outcome: AttemptEnd }
  | { readonly _tag: "Failed"; readonly outcome: AttemptEnd }

/**
 * After the `attempts`-th attempt ended `end`: `completed` completes the contact; an end listed in
 * `retry_on` is tried again `retry_delay_seconds` later while fewer than `max_attempts` were made; any
 * other end (a canceled run included) fails the contact, with the end as its `last_error`.
 */
export const afterAttempt = (
  policy: RetryPolicy,
  end: AttemptEnd,
  attempts: number,
  now: Date
): AfterAttempt => {
  if (end === "completed") return { _tag: "Completed" }
  const retryable = end !== "canceled" && policy.retry_on.includes(end)
  return retryable && attempts < policy.max_attempts
    ? { _tag: "Retry", at: new Date(now.getTime() + policy.retry_delay_seconds * 1000), outcome: end }
    : { _tag: "Failed", outcome: end }
}
