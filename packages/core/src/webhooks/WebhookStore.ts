import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { RunId } from "../runs/RunId.js"
import type { WebhookDelivery, WebhookDeliveryId, WebhookDeliveryStatus } from "./WebhookDelivery.js"
import type { WebhookEndpoint, WebhookEndpointId, WebhookEventType } from "./WebhookEndpoint.js"

/** What may change on an endpoint. */
export interface WebhookEndpointPatch {
  readonly url?: string
  readonly description?: string | null
  readonly events?: ReadonlyArray<WebhookEventType>
  readonly enabled?: boolean
}

/** A delivery taken for an attempt, with the endpoint it goes to. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery
  readonly endpoint: WebhookEndpoint
}

/** What one claim may take. */
export interface ClaimRequest {
  readonly now: Date
  /** The most deliveries taken. */
  readonly limit: number
  /** The most deliveries to one endpoint taken (the oldest due first). */
  readonly perEndpoint: number
  /** The most deliveries of one organization taken. */
  readonly perOrganization: number
  /** Endpoints whose deliveries are passed over (their share is already in flight). */
  readonly skipEndpoints: ReadonlyArray<WebhookEndpointId>
  /** Organizations whose deliveries are passed over (their share is already in flight). */
  readonly skipOrganizations: ReadonlyArray<OrganizationId>
}

/** What an attempt left on a delivery. */
export interface AttemptRecord {
  readonly attempts: number
  readonly status: WebhookDeliveryStatus
  readonly next_attempt_at: Date | null
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly delivered_at: Date | null
}

/** Storage of webhook endpoints and their deliveries. Reads and writes by the API are scoped to one organization. */
export class WebhookStore extends Context.Tag("@voice-agent-platform/core/WebhookStore")<
  WebhookStore,
  {
    /** Stores a new endpoint (its id and secret are drawn by the caller). */
    readonly insertEndpoint: (endpoint: WebhookEndpoint) => Effect.Effect<WebhookEndpoint>
    /**
     * Stores a new endpoint only while its organization has fewer than `limit`; None (nothing stored)
     * otherwise. Decided atomically: of simultaneous creations at the limit, in any processes, one passes.
     */
    readonly insertEndpointWithin: (
      endpoint: WebhookEndpoint,
      limit: number
    ) => Effect.Effect<Option.Option<WebhookEndpoint>>
    readonly findEndpoint: (
      organizationId: OrganizationId,
      id: WebhookEndpointId
    ) => Effect.Effect<Option.Option<WebhookEndpoint>>
    /** The organization's endpoints, newest first. */
    readonly listEndpoints: (
      organizationId: OrganizationId,
      page: PageRequest
    ) => Effect.Effect<Page<WebhookEndpoint>>
    /** Changes an endpoint and answers it; None when there is none of theirs. */
    readonly updateEndpoint: (
      organizationId: OrganizationId,
      id: WebhookEndpointId,
      patch: WebhookEndpointPatch
    ) => Effect.Effect<Option.Option<WebhookEndpoint>>
    /** Deletes an endpoint with its deliveries; false when there was none of theirs. */
    readonly removeEndpoint: (organizationId: OrganizationId, id: WebhookEndpointId) => Effect.Effect<boolean>
    /** The organization's enabled endpoints subscribed to the event. */
    readonly subscribers: (
      organizationId: OrganizationId,
      event: WebhookEventType
    ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
    /** Stores new pending deliveries. */
    readonly enqueue: (deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void>
    /**
     * Takes pending deliveries due at `now` to enabled endpoints (oldest due first), within the
     * request's bounds, and counts the attempt as it takes it: `attempts` goes up by one and
     * `next_attempt_at` moves to `now` plus the back-off after that attempt (`WebhookRetry.delaySeconds`),
     * in one atomic step. Two concurrent claims never take the same delivery; one whose attempt never
     * gets recorded (it hung, the process died) comes due again after its back-off, and once its
     * `WebhookRetry.maxAttempts` attempts are spent the claim settles it `failed` (`last_error`
     * `timeout`) instead of taking it.
     */
    readonly claimDue: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    /**
     * Writes what an attempt met: only while the delivery is still `pending` at that attempt's count
     * (a late answer never overwrites a later attempt or a settled delivery).
     */
    readonly recordAttempt: (id: WebhookDeliveryId, record: AttemptRecord) => Effect.Effect<void>
    /** The deliveries to one endpoint, newest first. */
    readonly listDeliveries: (
      organizationId: OrganizationId,
      endpointId: WebhookEndpointId,
      page: PageRequest
    ) => Effect.Effect<Page<WebhookDelivery>>
    /** Deletes every delivery about the run (its data goes with the run); answers how many. */
    readonly purgeRun: (organizationId: OrganizationId, runId: RunId) => Effect.Effect<number>
  }
>() {}
