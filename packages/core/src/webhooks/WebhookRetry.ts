import type { OutboundFailureCategory } from "../outbound/OutboundHttp.js"

/** The most attempts one delivery gets: the first and four retries. */
export const maxAttempts = 5

/** The longest wait between two attempts, in seconds. */
export const maxDelaySeconds = 600

/** The wait after the `attempt`-th failed attempt (from 1): `min(30·2^(attempt-1), 600)` seconds. */
export const delaySeconds = (attempt: number): number =>
  Math.min(30 * 2 ** (Math.max(1, attempt) - 1), maxDelaySeconds)

/** Whether a receiver's answer means "try again later": 408, 425, 429 and every 5xx. */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599)

/** What one attempt met: an HTTP status, or no answer at all, by category (timeout, connection, policy). */
export type AttemptResult =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "NoAnswer"; readonly category: OutboundFailureCategory }

/** Where a delivery stands after an attempt. */
export type AttemptOutcome =
  | { readonly status: "delivered" }
  | { readonly status: "pending"; readonly next_attempt_at: Date }
  | { readonly status: "failed" }

/**
 * Decides after the `attempt`-th attempt (from 1): a 2xx delivers; a retryable answer or no answer waits
 * `delaySeconds(attempt)` while attempts remain; anything else (4xx, 3xx, a destination the outbound
 * policy refuses) fails at once.
 */
export const next = (attempt: number, result: AttemptResult, now: Date): AttemptOutcome => {
  if (result._tag === "Answered" && result.status >= 200 && result.status <= 299)
    return { status: "delivered" }
  const retryable =
    result._tag === "NoAnswer"
      ? result.category !== "destination_not_allowed"
      : isRetryableStatus(result.status)
  if (!retryable || attempt >= maxAttempts) return { status: "failed" }
  return { status: "pending", next_attempt_at: new Date(now.getTime() + delaySeconds(attempt) * 1000) }
}

/** What the delivery log shows of an attempt that did not deliver: a category, never a raw error. */
export type AttemptErrorCategory = OutboundFailureCategory | "http_status"

/** The category an attempt's result is logged under (null once delivered). */
export const errorCategory = (result: AttemptResult): AttemptErrorCategory | null =>
  result._tag === "NoAnswer"
    ? result.category
    : result.status >= 200 && result.status <= 299
      ? null
      : "http_status"

const categories: ReadonlySet<string> = new Set<AttemptErrorCategory>([
  "timeout",
  "connection_failed",
  "destination_not_allowed",
  "http_status"
])

/**
 * What the delivery log shows of a stored `last_error`: the category itself; a text written before
 * categories existed (a raw error, possibly naming an internal address) shows as `http_status` when the
 * receiver answered, `connection_failed` otherwise.
 */
export const shownError = (
  lastError: string | null,
  lastStatusCode: number | null
): AttemptErrorCategory | null =>
  lastError === null
    ? null
    : categories.has(lastError)
      ? (lastError as AttemptErrorCategory)
      : lastStatusCode !== null
        ? "http_status"
        : "connection_failed"
