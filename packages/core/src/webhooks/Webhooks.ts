import { Clock, Context, Effect, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import { base62String, SecureRandom } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import type { WebhookDelivery } from "./WebhookDelivery.js"
import { deliveryIdFrom } from "./WebhookDelivery.js"
import type { CampaignEventType, RunEventType, WebhookEndpoint, WebhookEventType } from "./WebhookEndpoint.js"
import { allEventTypes, endpointIdFrom, parseEndpointId } from "./WebhookEndpoint.js"
import { QuotaExceeded } from "../quotas/QuotaErrors.js"
import { Quotas } from "../quotas/Quotas.js"
import { WebhookEndpointNotFound } from "./WebhookErrors.js"
import * as WebhookPayloads from "./WebhookPayloads.js"
import * as WebhookSignature from "./WebhookSignature.js"
import type { WebhookEndpointPatch } from "./WebhookStore.js"
import { WebhookStore } from "./WebhookStore.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** A new endpoint: where to POST, which events (all when omitted), and a note for people. */
export interface CreateWebhookEndpoint {
  readonly url: string
  readonly events?: ReadonlyArray<WebhookEventType>
  readonly description?: string | null
}

/** The key bytes of a new secret: 32 (Standard Webhooks asks for 24 to 64). */
export const secretBytes = 32

/**
 * Queues one delivery of the event about the run for each of the organization's enabled endpoints
 * subscribed to it. Run it inside the transaction that changes the run, so the event and the change
 * are stored together. Call events and run deletion emit through this.
 */
export const enqueue = (
  organizationId: OrganizationId,
  type: RunEventType,
  run: Run
): Effect.Effect<ReadonlyArray<WebhookDelivery>, never, WebhookStore | SecureRandom> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    queue(organizationId, type, run.workflow_run_id, () => WebhookPayloads.forRun(type, run, new Date(now)))
  )

/**
 * Queues one delivery of an event about a campaign (`data` is its body's `data`) for each subscribed
 * endpoint, like `enqueue`: inside the transaction that makes the change.
 */
export const enqueueCampaign = (
  organizationId: OrganizationId,
  type: CampaignEventType,
  data: Readonly<Record<string, unknown>>
): Effect.Effect<ReadonlyArray<WebhookDelivery>, never, WebhookStore | SecureRandom> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    queue(organizationId, type, null, () => WebhookPayloads.forCampaign(type, data, new Date(now)))
  )

/**
 * The deliveries of one event to its subscribers. `payloadOf` builds the body once there is one: most
 * events (every call's end in a campaign without webhooks) have none, and building it for nobody is
 * a call's end's allocation for nothing.
 */
const queue = (
  organizationId: OrganizationId,
  type: WebhookEventType,
  runId: Run["workflow_run_id"] | null,
  payloadOf: () => WebhookDelivery["payload"]
): Effect.Effect<ReadonlyArray<WebhookDelivery>, never, WebhookStore | SecureRandom> =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const endpoints = yield* store.subscribers(organizationId, type)
    if (endpoints.length === 0) return []
    const now = new Date(yield* Clock.currentTimeMillis)
    const deliveries = yield* deliveriesTo(endpoints, organizationId, type, runId, payloadOf(), now)
    yield* store.enqueue(deliveries)
    return deliveries
  })

/** One new delivery of the event to each endpoint, due at once. */
const deliveriesTo = (
  endpoints: ReadonlyArray<WebhookEndpoint>,
  organizationId: OrganizationId,
  type: WebhookEventType,
  runId: Run["workflow_run_id"] | null,
  payload: WebhookDelivery["payload"],
  now: Date
): Effect.Effect<ReadonlyArray<WebhookDelivery>, never, SecureRandom> =>
  Effect.forEach(endpoints, (endpoint) =>
    Effect.map(base62String(24), (body): WebhookDelivery => ({
      id: deliveryIdFrom(body),
      organization_id: organizationId,
      endpoint_id: endpoint.id,
      event_type: type,
      run_id: runId,
      payload,
      attempts: 0,
      status: "pending",
      next_attempt_at: now,
      last_status_code: null,
      last_error: null,
      created_at: now,
      delivered_at: null
    }))
  )

/**
 * Queues the event about each of the runs, as `enqueue` does for one (calls' ends taken together): the
 * subscribers are read once per organization, and every delivery is stored in one step. Inside the
 * transaction that changes the runs.
 */
export const enqueueEach = (
  type: RunEventType,
  runs: ReadonlyArray<Run>
): Effect.Effect<void, never, WebhookStore | SecureRandom> =>
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const now = new Date(yield* Clock.currentTimeMillis)
    const byOrganization = new Map<OrganizationId, Array<Run>>()
    for (const run of runs) {
      const own = byOrganization.get(run.organization_id)
      if (own === undefined) byOrganization.set(run.organization_id, [run])
      else own.push(run)
    }
    const deliveries: Array<WebhookDelivery> = []
    for (const [organizationId, own] of byOrganization) {
      const endpoints = yield* store.subscribers(organizationId, type)
      if (endpoints.length === 0) continue
      for (const run of own) {
        const payload = WebhookPayloads.forRun(type, run, now)
        deliveries.push(
          ...(yield* deliveriesTo(endpoints, organizationId, type, run.workflow_run_id, payload, now))
        )
      }
    }
    if (deliveries.length > 0) yield* store.enqueue(deliveries)
  })

/**
 * Organization webhooks: endpoints that receive the events about runs (`call.started`, `call.ended`,
 * `call.analyzed`, `call.deleted`) and campaigns (`campaign.started`, `campaign.completed`,
 * `campaign.contact.skipped`), signed per Standard Webhooks, and the log of their deliveries. Sending is
 * `WebhookDispatcher`'s job.
 */
export class Webhooks extends Context.Tag("@voice-agent-platform/core/Webhooks")<
  Webhooks,
  {
    /**
     * A new enabled endpoint with a fresh secret (the only time the secret is handed out); refused when
     * the organization already has as many endpoints as its quota (`Quotas`) allows.
     */
    readonly create: (
      organizationId: OrganizationId,
      input: CreateWebhookEndpoint
    ) => Effect.Effect<WebhookEndpoint, QuotaExceeded>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<WebhookEndpoint>>
    readonly get: (
      organizationId: OrganizationId,
      webhookId: string
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
    /** Changes url, events, description or enabled; a disabled endpoint is sent nothing. */
    readonly update: (
      organizationId: OrganizationId,
      webhookId: string,
      patch: WebhookEndpointPatch
    ) => Effect.Effect<WebhookEndpoint, WebhookEndpointNotFound>
    /** Deletes the endpoint and its delivery log; pending deliveries are dropped. */
    readonly remove: (
      organizationId: OrganizationId,
      webhookId: string
    ) => Effect.Effect<void, WebhookEndpointNotFound>
    /** The endpoint's delivery log, newest first. */
    readonly deliveries: (
      organizationId: OrganizationId,
      webhookId: string,
      page: PageRequest
    ) => Effect.Effect<Page<WebhookDelivery>, WebhookEndpointNotFound>
    /** Queues the event about the run for every subscribed enabled endpoint (see `enqueue`). */
    readonly emit: (
      organizationId: OrganizationId,
      type: RunEventType,
      run: Run
    ) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  }
>() {}

/** The service over the webhook store and secure randomness. */
export const layer = Layer.effect(
  Webhooks,
  Effect.gen(function* () {
    const store = yield* WebhookStore
    const random = yield* SecureRandom
    const quotas = yield* Quotas
    const withPorts = <A>(effect: Effect.Effect<A, never, WebhookStore | SecureRandom>) =>
      effect.pipe(Effect.provideService(WebhookStore, store), Effect.provideService(SecureRandom, random))

    const notFound = (webhookId: string) => new WebhookEndpointNotFound({ webhook_id: webhookId })

    const get = (organizationId: OrganizationId, webhookId: string) =>
      Effect.gen(function* () {
        const id = parseEndpointId(webhookId)
        const found = id === undefined ? Option.none() : yield* store.findEndpoint(organizationId, id)
        return Option.isSome(found) ? found.value : yield* notFound(webhookId)
      })

    return Webhooks.of({
      create: OperationSpans.fn("Webhooks.create")(function* (organizationId, input) {
        const body = yield* withPorts(base62String(20))
        const key = yield* random.bytes(secretBytes)
        const now = new Date(yield* Clock.currentTimeMillis)
        const inserted = yield* store.insertEndpointWithin(
          {
            id: endpointIdFrom(body),
            organization_id: organizationId,
            url: input.url,
            description: input.description ?? null,
            events: [...new Set(input.events ?? allEventTypes)],
            secret: WebhookSignature.secretFromBytes(key),
            enabled: true,
            created_at: now
          },
          quotas.webhook_endpoints
        )
        return Option.isSome(inserted)
          ? inserted.value
          : yield* new QuotaExceeded({ resource: "webhook_endpoints", limit: quotas.webhook_endpoints })
      }, SpanAttributes.organization),
      list: OperationSpans.fn("Webhooks.list")(
        (organizationId, page) => store.listEndpoints(organizationId, page),
        SpanAttributes.organization
      ),
      get: OperationSpans.fn("Webhooks.get")(get, SpanAttributes.organization),
      update: OperationSpans.fn("Webhooks.update")(function* (organizationId, webhookId, patch) {
        const endpoint = yield* get(organizationId, webhookId)
        const events = patch.events === undefined ? {} : { events: [...new Set(patch.events)] }
        const updated = yield* store.updateEndpoint(organizationId, endpoint.id, { ...patch, ...events })
        return Option.isSome(updated) ? updated.value : yield* notFound(webhookId)
      }, SpanAttributes.organization),
      remove: OperationSpans.fn("Webhooks.remove")(function* (organizationId, webhookId) {
        const endpoint = yield* get(organizationId, webhookId)
        if (!(yield* store.removeEndpoint(organizationId, endpoint.id))) return yield* notFound(webhookId)
      }, SpanAttributes.organization),
      deliveries: OperationSpans.fn("Webhooks.deliveries")(
        (organizationId, webhookId, page) =>
          Effect.flatMap(get(organizationId, webhookId), (endpoint) =>
            store.listDeliveries(organizationId, endpoint.id, page)
          ),
        SpanAttributes.organization
      ),
      emit: OperationSpans.fn("Webhooks.emit")(
        (organizationId, type, run) => withPorts(enqueue(organizationId, type, run)),
        SpanAttributes.organization
      )
    })
  })
)
