import { Effect, Layer, Option } from "effect"
import type { WebhookDelivery } from "../webhooks/WebhookDelivery.js"
import type { WebhookEndpoint } from "../webhooks/WebhookEndpoint.js"
import * as WebhookRetry from "../webhooks/WebhookRetry.js"
import type { ClaimedDelivery } from "../webhooks/WebhookStore.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import { MemoryDatabase, newestFirst } from "./MemoryDatabase.js"
import { byCreation, organizationTable } from "./OrganizationTable.js"

/** Webhook endpoints and deliveries in memory. */
export const layer: Layer.Layer<WebhookStore, never, MemoryDatabase> = Layer.effect(
  WebhookStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const endpoints = organizationTable(db.table<string, WebhookEndpoint>("webhook_endpoints"), byCreation)
    const deliveries = organizationTable(db.table<string, WebhookDelivery>("webhook_deliveries"), byCreation)
    return {
      insertEndpoint: (endpoint) =>
        db.atomically(() => {
          endpoints.set(endpoint.id, endpoint)
          return endpoint
        }),
      insertEndpointWithin: (endpoint, limit) =>
        db.atomically(() => {
          if (endpoints.ownRows(endpoint.organization_id).length >= limit) return Option.none()
          endpoints.set(endpoint.id, endpoint)
          return Option.some(endpoint)
        }),
      findEndpoint: (organizationId, id) => db.atomically(() => endpoints.findOwn(organizationId, id)),
      listEndpoints: (organizationId, page) =>
        db.atomically(() => endpoints.newestPage(organizationId, page)),
      updateEndpoint: (organizationId, id, patch) =>
        db.atomically(() =>
          endpoints.replaceOwn(organizationId, id, (endpoint) => ({ ...endpoint, ...patch }))
        ),
      removeEndpoint: (organizationId, id) =>
        db.atomically(() => {
          if (Option.isNone(endpoints.removeOwn(organizationId, id))) return false
          for (const delivery of deliveries.ownRows(organizationId, (d) => d.endpoint_id === id)) {
            deliveries.delete(delivery.id)
          }
          return true
        }),
      subscribers: (organizationId, event) =>
        db.atomically(() =>
          newestFirst(
            endpoints.ownRows(organizationId, (e) => e.enabled && e.events.includes(event)),
            (e) => e.created_at,
            (e) => e.id
          ).reverse()
        ),
      enqueue: (rows) =>
        db.atomically(() => {
          for (const row of rows) deliveries.set(row.id, row)
        }),
      claimDue: (request) =>
        db.atomically(() => {
          const { now } = request
          const due: Array<ClaimedDelivery> = []
          const byEndpoint = new Map<string, number>()
          const byOrganization = new Map<number, number>()
          const skipEndpoints = new Set<string>(request.skipEndpoints)
          const skipOrganizations = new Set<number>(request.skipOrganizations)
          const candidates = deliveries
            .values()
            .filter((d) => d.status === "pending" && d.next_attempt_at !== null && d.next_attempt_at <= now)
            .sort(
              (a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime() || (a.id < b.id ? -1 : 1)
            )
          for (const delivery of candidates) {
            if (delivery.attempts >= WebhookRetry.maxAttempts) {
              // Its last attempt was counted but never recorded: settled as a timeout.
              deliveries.set(delivery.id, {
                ...delivery,
                status: "failed",
                next_attempt_at: null,
                last_status_code: null,
                last_error: "timeout"
              })
              continue
            }
            if (due.length >= request.limit) continue
            const endpoint = endpoints.get(delivery.endpoint_id)
            // A disabled endpoint's deliveries wait until it is enabled again.
            if (endpoint === undefined || !endpoint.enabled) continue
            if (skipEndpoints.has(endpoint.id) || skipOrganizations.has(delivery.organization_id)) continue
            const ofEndpoint = byEndpoint.get(endpoint.id) ?? 0
            const ofOrganization = byOrganization.get(delivery.organization_id) ?? 0
            if (ofEndpoint >= request.perEndpoint || ofOrganization >= request.perOrganization) continue
            byEndpoint.set(endpoint.id, ofEndpoint + 1)
            byOrganization.set(delivery.organization_id, ofOrganization + 1)
            const attempts = delivery.attempts + 1
            const taken = {
              ...delivery,
              attempts,
              next_attempt_at: new Date(now.getTime() + WebhookRetry.delaySeconds(attempts) * 1000)
            }
            deliveries.set(delivery.id, taken)
            due.push({ delivery: taken, endpoint })
          }
          return due
        }),
      recordAttempt: (id, record) =>
        db.atomically(() => {
          const current = deliveries.get(id)
          if (current === undefined || current.status !== "pending" || current.attempts !== record.attempts)
            return
          deliveries.set(id, { ...current, ...record })
        }),
      listDeliveries: (organizationId, endpointId, page) =>
        db.atomically(() => deliveries.newestPage(organizationId, page, (d) => d.endpoint_id === endpointId)),
      purgeRun: (organizationId, runId) =>
        db.atomically(() => {
          const about = deliveries.ownRows(organizationId, (d) => d.run_id === runId)
          for (const delivery of about) deliveries.delete(delivery.id)
          return about.length
        })
    }
  })
)
