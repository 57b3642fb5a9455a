import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import * as WebhookRetry from "./WebhookRetry.js"
import { WebhookSender } from "./WebhookSender.js"
import * as WebhookSignature from "./WebhookSignature.js"
import type { ClaimedDelivery } from "./WebhookStore.js"
import { WebhookStore } from "./WebhookStore.js"

/** How the dispatcher works through due deliveries. */
export interface DispatchOptions {
  /** The most deliveries one round takes. */
  readonly limit?: number
  /** How long a receiver has to answer. */
  readonly timeout?: Duration.DurationInput
  /** How long a claimed delivery stays taken before another round may try it again (after a crash). */
  readonly lease?: Duration.DurationInput
}

const defaults = { limit: 50, timeout: Duration.seconds(10), lease: Duration.seconds(60) }

/** Sends one claimed delivery, signed as of the moment it leaves, and records what it met. */
const attempt = ({ delivery, endpoint }: ClaimedDelivery, timeout: Duration.DurationInput) =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const sender = yield* WebhookSender
    const body = JSON.stringify(delivery.payload)
    const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const signature = yield* WebhookSignature.sign(endpoint.secret, delivery.id, timestamp, body)
    const response = yield* sender.send({
      url: endpoint.url,
      headers: {
        "content-type": "application/json",
        "user-agent": "voice-agent-platform-webhooks/1",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature
      },
      body,
      timeout
    })
    const now = new Date(yield* Clock.currentTimeMillis)
    const attempts = delivery.attempts + 1
    const outcome = WebhookRetry.next(attempts, response, now)
    yield* store.recordAttempt(delivery.id, {
      attempts,
      status: outcome.status,
      next_attempt_at: outcome.status === "pending" ? outcome.next_attempt_at : null,
      last_status_code: response._tag === "Answered" ? response.status : null,
      last_error:
        response._tag === "NoAnswer"
          ? response.error
          : outcome.status === "delivered"
            ? null
            : `receiver answered ${response.status}`,
      delivered_at: outcome.status === "delivered" ? now : null
    })
  })

/**
 * One round: claims the deliveries due now (each by one dispatcher only), sends them, records each
 * attempt with its next time per `WebhookRetry`. Answers how many were attempted.
 */
export const deliverDue = (
  options: DispatchOptions = {}
): Effect.Effect<number, never, WebhookStore | WebhookSender> =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const now = yield* Clock.currentTimeMillis
    const lease = Duration.toMillis(options.lease ?? defaults.lease)
    const claimed = yield* store.claimDue(
      new Date(now),
      options.limit ?? defaults.limit,
      new Date(now + lease)
    )
    yield* Effect.forEach(claimed, (one) => attempt(one, options.timeout ?? defaults.timeout), {
      concurrency: 8,
      discard: true
    })
    return claimed.length
  })

/**
 * The dispatcher in the background: a round every second, on the `Clock` (a test clock drives it), for
 * as long as the layer lives. A round that fails unexpectedly is logged and the next one goes on.
 */
export const layer = (
  options: DispatchOptions = {}
): Layer.Layer<never, never, WebhookStore | WebhookSender> =>
  Layer.scopedDiscard(
    deliverDue(options).pipe(
      Effect.catchAllCause((cause) => Effect.logError("webhook delivery round failed", cause)),
      Effect.repeat(Schedule.spaced("1 second")),
      Effect.forkScoped
    )
  )
