import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientResponse } from "@effect/platform"
import { Duration, Effect } from "effect"

/** How the typed client retries a request refused with 429. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 never retries). */
  readonly maxAttempts?: number
  /** The first back-off when the answer has no `Retry-After` (default 500 ms); doubled each attempt. */
  readonly baseDelay?: Duration.DurationInput
  /** The longest back-off without `Retry-After` (default 30 s). */
  readonly maxDelay?: Duration.DurationInput
  /** The longest `Retry-After` waited (default 60 s); a longer one is answered to the caller at once. */
  readonly maxRetryAfter?: Duration.DurationInput
}

/** The settings of `RetryOptions`, each with its default. */
export const settings = (options: RetryOptions = {}) => ({
  maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 4)),
  baseDelayMillis: Duration.toMillis(options.baseDelay ?? Duration.millis(500)),
  maxDelayMillis: Duration.toMillis(options.maxDelay ?? Duration.seconds(30)),
  maxRetryAfterMillis: Duration.toMillis(options.maxRetryAfter ?? Duration.seconds(60))
})

/**
 * `Retry-After` in milliseconds: delay-seconds (`120`) or an HTTP date, counted from `now`; undefined
 * when absent or unreadable. A date in the past is 0.
 */
export const retryAfterMillis = (header: string | undefined, now: number): number | undefined => {
  if (header === undefined) return undefined
  const text = header.trim()
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000
  if (!/[a-z]/i.test(text)) return undefined
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * Exponential back-off with jitter for the `attempt`-th retry (1, 2, ...): half of the capped exponential
 * delay for sure, the other half at random (`random` in [0, 1)), so that clients refused together do not
 * come back together.
 */
export const backoffMillis = (
  attempt: number,
  baseDelayMillis: number,
  maxDelayMillis: number,
  random: number
): number => {
  const capped = Math.min(maxDelayMillis, baseDelayMillis * 2 ** Math.min(attempt - 1, 52))
  return capped / 2 + (capped / 2) * random
}

/** Whether a request places a call (`POST .../agents/{id}/calls`, `/triggers/{id}/calls`, `/workflow/{id}/calls`). */
export const placesCall = (request: HttpClientRequest.HttpClientRequest): boolean =>
  request.method === "POST" && /\/api\/v1\/(agents|triggers|workflow)\/[^/]+\/calls\/?$/.test(request.url)

/** Gives a call-placing request an `Idempotency-Key` when it has none, so that its retries place one call. */
export const withIdempotencyKey = (request: HttpClientRequest.HttpClientRequest) =>
  placesCall(request) && request.headers["idempotency-key"] === undefined
    ? HttpClientRequest.setHeader(request, "idempotency-key", globalThis.crypto.randomUUID())
    : request

/**
 * The client with 429s retried: after `Retry-After` when the answer has one (up to `maxRetryAfter`),
 * else after an exponential back-off with jitter; at most `maxAttempts` attempts. The last answer is
 * the caller's. Call POSTs carry an `Idempotency-Key` (generated when the caller gave none), the same on
 * every attempt: the server keeps no 429, so a retry runs again and places at most one call.
 */
export const retrying =
  (options: RetryOptions = {}) =>
  <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> => {
    const { maxAttempts, baseDelayMillis, maxDelayMillis, maxRetryAfterMillis } = settings(options)
    const attempt = (
      send: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>,
      n: number
    ): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> =>
      Effect.flatMap(send, (response) => {
        if (response.status !== 429 || n >= maxAttempts) return Effect.succeed(response)
        const asked = retryAfterMillis(response.headers["retry-after"], Date.now())
        if (asked !== undefined && asked > maxRetryAfterMillis) return Effect.succeed(response)
        const wait = asked ?? backoffMillis(n, baseDelayMillis, maxDelayMillis, Math.random())
        // the refused answer's body is read and dropped so its connection can be reused
        return Effect.ignore(response.arrayBuffer).pipe(
          Effect.zipRight(Effect.sleep(Duration.millis(wait))),
          Effect.zipRight(attempt(send, n + 1))
        )
      })
    return HttpClient.mapRequest(
      HttpClient.transform(client, (send) => attempt(send, 1)),
      withIdempotencyKey
    )
  }
