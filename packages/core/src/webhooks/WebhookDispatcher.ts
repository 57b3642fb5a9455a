import { Clock, Duration, Effect, Layer, Schedule, type Scope } from "effect"
import { webhookDeliveryFailed } from "../observability/OperationalEvents.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { WebhookEndpointId } from "./WebhookEndpoint.js"
import * as WebhookRetry from "./WebhookRetry.js"
import { WebhookSender, type WebhookResponse } from "./WebhookSender.js"
import * as WebhookSignature from "./WebhookSignature.js"
import type { ClaimedDelivery, ClaimRequest } from "./WebhookStore.js"
import { backgroundSpan, untraced } from "../observability/BackgroundSpans.js"
import { WebhookStore } from "./WebhookStore.js"

/** How the dispatcher works through due deliveries. */
export interface DispatchOptions {
  /** The most deliveries in flight at once in this process (default 64). */
  readonly limit?: number
  /** The most deliveries in flight to one endpoint (default 2). */
  readonly perEndpoint?: number
  /** The most deliveries in flight for one organization (default 8). */
  readonly perOrganization?: number
  /**
   * How long a receiver has to answer (default 10 s). Kept under the first back-off (30 s, at most
   * 25 s), so that an attempt is over before its delivery comes due again.
   */
  readonly timeout?: Duration.DurationInput
}

/** The settings when none are given. */
export const defaults = {
  limit: 64,
  perEndpoint: 2,
  perOrganization: 8,
  timeout: Duration.seconds(10)
} as const

/** The longest receiver deadline: shorter than the first back-off, which a claim already set. */
export const maxTimeout = Duration.seconds(WebhookRetry.delaySeconds(1) - 5)

/** How long after the receiver's deadline an attempt is given up as `timeout` even if the sender never returns. */
const senderGrace = Duration.seconds(1)

const settings = (options: DispatchOptions) => ({
  limit: Math.max(1, options.limit ?? defaults.limit),
  perEndpoint: Math.max(1, options.perEndpoint ?? defaults.perEndpoint),
  perOrganization: Math.max(1, options.perOrganization ?? defaults.perOrganization),
  timeout: Duration.min(Duration.decode(options.timeout ?? defaults.timeout), maxTimeout)
})

/**
 * Sends one claimed delivery (its attempt already counted by the claim), signed as of the moment it
 * leaves, and records what it met: the status, or the category of the failure.
 */
const attempt = ({ delivery, endpoint }: ClaimedDelivery, timeout: Duration.Duration) =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const sender = yield* WebhookSender
    const body = JSON.stringify(delivery.payload)
    const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const signature = yield* WebhookSignature.sign(endpoint.secret, delivery.id, timestamp, body)
    const response = yield* sender
      .send({
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
      .pipe(
        // The sender's own deadline ends it; this one holds even for a sender that never returns.
        Effect.timeoutTo({
          duration: Duration.sum(timeout, senderGrace),
          onTimeout: (): WebhookResponse => ({ _tag: "NoAnswer", category: "timeout" }),
          onSuccess: (answer) => answer
        })
      )
    const now = new Date(yield* Clock.currentTimeMillis)
    const outcome = WebhookRetry.next(delivery.attempts, response, now)
    yield* store.recordAttempt(delivery.id, {
      attempts: delivery.attempts,
      status: outcome.status,
      next_attempt_at: outcome.status === "pending" ? outcome.next_attempt_at : null,
      last_status_code: response._tag === "Answered" ? response.status : null,
      last_error: WebhookRetry.errorCategory(response),
      delivered_at: outcome.status === "delivered" ? now : null
    })
    if (outcome.status !== "delivered") {
      yield* webhookDeliveryFailed({
        delivery_id: delivery.id,
        endpoint_id: delivery.endpoint_id,
        organization_id: delivery.organization_id,
        attempts: delivery.attempts,
        error: WebhookRetry.errorCategory(response),
        status_code: response._tag === "Answered" ? response.status : null,
        outcome: outcome.status === "pending" ? "retry" : "failed"
      })
    }
  }).pipe(
    Effect.withSpan("WebhookDispatcher.attempt", {
      attributes: { delivery_id: delivery.id },
      captureStackTrace: false
    })
  )

/** The claim for `free` more deliveries, passing over the endpoints and organizations at their bound. */
const claimRequest = (
  now: number,
  free: number,
  bounds: ReturnType<typeof settings>,
  busy: InFlight
): ClaimRequest => ({
  now: new Date(now),
  limit: free,
  perEndpoint: bounds.perEndpoint,
  perOrganization: bounds.perOrganization,
  skipEndpoints: [...busy.endpoints].filter(([, n]) => n >= bounds.perEndpoint).map(([id]) => id),
  skipOrganizations: [...busy.organizations].filter(([, n]) => n >= bounds.perOrganization).map(([id]) => id)
})

/** The deliveries in flight, per endpoint and per organization, with a permit pool for each. */
interface InFlight {
  total: number
  readonly endpoints: Map<WebhookEndpointId, number>
  readonly organizations: Map<OrganizationId, number>
  readonly endpointGates: Map<WebhookEndpointId, Effect.Semaphore>
  readonly organizationGates: Map<OrganizationId, Effect.Semaphore>
}

const emptyInFlight = (): InFlight => ({
  total: 0,
  endpoints: new Map(),
  organizations: new Map(),
  endpointGates: new Map(),
  organizationGates: new Map()
})

const gate = <K>(gates: Map<K, Effect.Semaphore>, key: K, permits: number) => {
  let semaphore = gates.get(key)
  if (semaphore === undefined) {
    semaphore = Effect.unsafeMakeSemaphore(permits)
    gates.set(key, semaphore)
  }
  return semaphore
}

const count = <K>(counts: Map<K, number>, key: K, by: number) => {
  const n = (counts.get(key) ?? 0) + by
  if (n <= 0) counts.delete(key)
  else counts.set(key, n)
  return n
}

/**
 * Runs one claimed delivery within its endpoint's and organization's bounds (a claim takes at most a
 * bound's worth of one endpoint or organization, so waiting for a permit is short), and keeps the
 * books of what is in flight.
 */
const bounded = (claimed: ClaimedDelivery, bounds: ReturnType<typeof settings>, busy: InFlight) => {
  const endpointId = claimed.endpoint.id
  const organizationId = claimed.delivery.organization_id
  busy.total++
  count(busy.endpoints, endpointId, 1)
  count(busy.organizations, organizationId, 1)
  const endpointGate = gate(busy.endpointGates, endpointId, bounds.perEndpoint)
  const organizationGate = gate(busy.organizationGates, organizationId, bounds.perOrganization)
  return attempt(claimed, bounds.timeout).pipe(
    organizationGate.withPermits(1),
    endpointGate.withPermits(1),
    Effect.catchAllCause((cause) => Effect.logError("webhook delivery attempt failed", cause)),
    Effect.ensuring(
      Effect.sync(() => {
        busy.total--
        if (count(busy.endpoints, endpointId, -1) === 0) busy.endpointGates.delete(endpointId)
        if (count(busy.organizations, organizationId, -1) === 0) busy.organizationGates.delete(organizationId)
      })
    )
  )
}

/**
 * One round that waits for its attempts: claims the deliveries due now (each by one dispatcher only,
 * within the bounds), sends them, records each attempt with its next time per `WebhookRetry`. Answers
 * how many were attempted. For tests and one-off runs; the background dispatcher does not wait.
 */
export const deliverDue = (
  options: DispatchOptions = {}
): Effect.Effect<number, never, WebhookStore | WebhookSender> =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const bounds = settings(options)
    const busy = emptyInFlight()
    const claimed = yield* untraced(
      store.claimDue(claimRequest(yield* Clock.currentTimeMillis, bounds.limit, bounds, busy))
    )
    if (claimed.length === 0) return 0
    yield* Effect.forEach(claimed, (one) => bounded(one, bounds, busy), {
      concurrency: "unbounded",
      discard: true
    }).pipe(backgroundSpan("WebhookDispatcher.round", { claimed: claimed.length }))
    return claimed.length
  })

/**
 * One round of the background dispatcher: claims as many due deliveries as there is room for, passing
 * over endpoints and organizations already at their bound, and starts each in `scope` without waiting
 * for it. The claim polls untraced: only a round that claimed something is a trace
 * (`WebhookDispatcher.round`, its `WebhookDispatcher.attempt`s beneath). A slow receiver holds only its own endpoint's and organization's share.
 */
const startDue = (bounds: ReturnType<typeof settings>, busy: InFlight, scope: Scope.Scope) =>
  Effect.gen(function* () {
    const free = bounds.limit - busy.total
    if (free <= 0) return 0
    const store = yield* WebhookStore
    const claimed = yield* untraced(
      store.claimDue(claimRequest(yield* Clock.currentTimeMillis, free, bounds, busy))
    )
    if (claimed.length === 0) return 0
    // the attempts, started in the round's span, are its children (they may outlast it)
    yield* Effect.forEach(claimed, (one) => Effect.forkIn(bounded(one, bounds, busy), scope), {
      discard: true
    }).pipe(backgroundSpan("WebhookDispatcher.round", { claimed: claimed.length }))
    return claimed.length
  })

/**
 * The dispatcher in the background: a round every second, on the `Clock` (a test clock drives it), for
 * as long as the layer lives; rounds never wait for deliveries in flight. A round that fails
 * unexpectedly is logged and the next one goes on.
 */
export const layer = (
  options: DispatchOptions = {}
): Layer.Layer<never, never, WebhookStore | WebhookSender> =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const bounds = settings(options)
      const busy = emptyInFlight()
      yield* startDue(bounds, busy, scope).pipe(
        Effect.catchAllCause((cause) => Effect.logError("webhook delivery round failed", cause)),
        Effect.repeat(Schedule.spaced("1 second")),
        Effect.forkScoped
      )
    })
  )
