import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { RunStore } from "../src/runs/RunStore.js"
import type { WebhookDelivery } from "../src/webhooks/WebhookDelivery.js"
import { deliveryIdFrom } from "../src/webhooks/WebhookDelivery.js"
import { endpointIdFrom } from "../src/webhooks/WebhookEndpoint.js"
import type { ClaimRequest } from "../src/webhooks/WebhookStore.js"
import { WebhookStore } from "../src/webhooks/WebhookStore.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for webhook endpoints and deliveries; `storeContract` runs it against every adapter. */
export const webhookStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("webhooks", () => {
    /** A claim with no bounds beyond `limit`. */
    const claim = (now: Date, limit: number, bounds: Partial<ClaimRequest> = {}): ClaimRequest => ({
      now,
      limit,
      perEndpoint: 1000,
      perOrganization: 1000,
      skipEndpoints: [],
      skipOrganizations: [],
      ...bounds
    })

    it.effect(
      "stores endpoints and deliveries, claims each due delivery once under concurrency, purges",
      () =>
        Effect.gen(function* () {
          const store = yield* WebhookStore
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const otherRun = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const suffix = yield* Fixtures.unique()
          const endpoint = (n: number, offsetSeconds: number) => ({
            id: endpointIdFrom(`${suffix}${String(n).padStart(8, "0")}`),
            organization_id: org.id,
            url: `https://example.com/${n}`,
            description: null,
            events: ["call.started", "call.ended"] as const,
            secret: "whsec_c2VjcmV0",
            enabled: true,
            created_at: at(offsetSeconds)
          })
          const first = yield* store.insertEndpoint(endpoint(1, 0))
          const second = yield* store.insertEndpoint(endpoint(2, 10))
          expect(Option.getOrThrow(yield* store.findEndpoint(org.id, first.id))).toEqual(first)
          expect(Option.isNone(yield* store.findEndpoint(other.id, first.id))).toBe(true)
          expect((yield* store.listEndpoints(org.id, page(1))).items.map((e) => e.id)).toEqual([
            second.id,
            first.id
          ])
          expect((yield* store.listEndpoints(other.id, page(1))).total_count).toBe(0)
          expect(Option.isNone(yield* store.updateEndpoint(other.id, first.id, { enabled: false }))).toBe(
            true
          )
          const disabled = Option.getOrThrow(
            yield* store.updateEndpoint(org.id, second.id, { enabled: false })
          )
          expect(disabled).toEqual({ ...second, enabled: false })
          expect((yield* store.subscribers(org.id, "call.started")).map((e) => e.id)).toEqual([first.id])
          expect(yield* store.subscribers(org.id, "call.deleted")).toEqual([])

          const delivery = (
            n: number,
            runId = run.workflow_run_id,
            endpointId = first.id
          ): WebhookDelivery => ({
            id: deliveryIdFrom(`${suffix}${String(n).padStart(12, "0")}`),
            organization_id: org.id,
            endpoint_id: endpointId,
            event_type: "call.started",
            run_id: runId,
            payload: { type: "call.started", timestamp: at(n).toISOString(), data: { n } },
            attempts: 0,
            status: "pending",
            next_attempt_at: at(n),
            last_status_code: null,
            last_error: null,
            created_at: at(n),
            delivered_at: null
          })
          const rows = Array.from({ length: 12 }, (_, i) => delivery(i + 1))
          yield* store.enqueue([
            ...rows,
            delivery(50, otherRun.workflow_run_id),
            delivery(51, run.workflow_run_id, second.id)
          ])
          // Only this organization's rows are counted: a shared database holds other tests' deliveries too.
          const ours = (claimed: ReadonlyArray<{ readonly delivery: WebhookDelivery }>) =>
            claimed.map((c) => c.delivery.id).filter((id) => id.includes(suffix))
          const claims = yield* Effect.all(
            Array.from({ length: 6 }, () => store.claimDue(claim(at(12), 4))),
            { concurrency: "unbounded" }
          )
          const claimedIds = claims.flatMap(ours)
          expect(new Set(claimedIds).size).toBe(claimedIds.length)
          expect(new Set(claimedIds)).toEqual(new Set(rows.map((r) => r.id)))
          // each claim counted its attempt and moved the delivery to the back-off after it (30 s)
          const firstClaim = claims.flat().find((c) => c.delivery.id === rows[0]!.id)!
          expect(firstClaim.delivery).toMatchObject({ attempts: 1, next_attempt_at: at(42) })
          expect(ours(yield* store.claimDue(claim(at(40), 100)))).toEqual([])
          // an attempt never recorded: the delivery is due again after its back-off, its next attempt counted
          const retaken = yield* store.claimDue(claim(at(100), 100))
          // rows, the other run's delivery; not the one to the disabled endpoint
          expect(ours(retaken)).toHaveLength(13)
          expect(retaken.find((c) => c.delivery.id === rows[0]!.id)?.endpoint).toEqual(first)
          expect(retaken.find((c) => c.delivery.id === rows[0]!.id)?.delivery).toMatchObject({
            attempts: 2,
            next_attempt_at: at(160)
          })

          // a late answer to the first attempt does not overwrite the second
          yield* store.recordAttempt(rows[0]!.id, {
            attempts: 1,
            status: "failed",
            next_attempt_at: null,
            last_status_code: 500,
            last_error: "http_status",
            delivered_at: null
          })
          yield* store.recordAttempt(rows[0]!.id, {
            attempts: 2,
            status: "delivered",
            next_attempt_at: null,
            last_status_code: 204,
            last_error: null,
            delivered_at: at(101)
          })
          const log = yield* store.listDeliveries(org.id, first.id, page(1, 100))
          expect(log.total_count).toBe(13)
          expect(log.items[0]?.id).toBe(delivery(50).id)
          expect(log.items.find((d) => d.id === rows[0]!.id)).toEqual({
            ...rows[0],
            attempts: 2,
            status: "delivered",
            next_attempt_at: null,
            last_status_code: 204,
            delivered_at: at(101)
          })
          expect((yield* store.listDeliveries(other.id, first.id, page(1))).total_count).toBe(0)
          expect(ours(yield* store.claimDue(claim(at(1000), 100)))).not.toContain(rows[0]!.id)

          expect(yield* store.purgeRun(other.id, run.workflow_run_id)).toBe(0)
          expect(yield* store.purgeRun(org.id, run.workflow_run_id)).toBe(13)
          expect((yield* store.listDeliveries(org.id, first.id, page(1))).items.map((d) => d.id)).toEqual([
            delivery(50).id
          ])
          expect(yield* store.removeEndpoint(other.id, first.id)).toBe(false)
          expect(yield* store.removeEndpoint(org.id, first.id)).toBe(true)
          expect(Option.isNone(yield* store.findEndpoint(org.id, first.id))).toBe(true)
          expect((yield* store.listDeliveries(org.id, first.id, page(1))).total_count).toBe(0)
        })
    )

    it.effect(
      "claims within bounds per endpoint and organization, passes over the skipped, and fails a delivery whose attempts are spent",
      () =>
        Effect.gen(function* () {
          const store = yield* WebhookStore
          const runs = yield* RunStore
          const suffix = yield* Fixtures.unique()
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const { agent: otherAgent } = yield* Fixtures.agent(other.id)
          const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
          const otherRun = yield* runs.insert(Fixtures.newRun(other.id, otherAgent.id), at(0))
          const endpoint = (n: number, organizationId: typeof org.id) =>
            store.insertEndpoint({
              id: endpointIdFrom(`${suffix}${String(n).padStart(8, "1")}`),
              organization_id: organizationId,
              url: `https://example.com/${n}`,
              description: null,
              events: ["call.started"],
              secret: "whsec_c2VjcmV0",
              enabled: true,
              created_at: at(0)
            })
          const [one, two, theirs, spent] = [
            yield* endpoint(1, org.id),
            yield* endpoint(2, org.id),
            yield* endpoint(3, other.id),
            yield* endpoint(4, org.id)
          ]
          const delivery = (n: number, to: typeof one, attempts = 0, due = 20_000 + n): WebhookDelivery => ({
            id: deliveryIdFrom(`${suffix}${String(n).padStart(12, "1")}`),
            organization_id: to.organization_id,
            endpoint_id: to.id,
            event_type: "call.started",
            run_id: to.organization_id === org.id ? run.workflow_run_id : otherRun.workflow_run_id,
            payload: { type: "call.started", timestamp: at(n).toISOString(), data: { n } },
            attempts,
            status: "pending",
            next_attempt_at: at(due),
            last_status_code: null,
            last_error: null,
            created_at: at(n),
            delivered_at: null
          })
          const d = [
            delivery(1, one),
            delivery(2, one),
            delivery(3, one),
            delivery(4, two),
            delivery(5, two),
            delivery(6, two),
            delivery(7, theirs),
            delivery(8, theirs)
          ]
          yield* store.enqueue([...d, delivery(9, spent, 4, 30_000)])
          const ours = (claimed: ReadonlyArray<{ readonly delivery: WebhookDelivery }>) =>
            claimed.map((c) => c.delivery.id).filter((id) => id.includes(suffix))
          const ids = (...ns: Array<number>) => ns.map((n) => d[n - 1]!.id)

          // two per endpoint, three per organization, the oldest due first
          expect(
            ours(yield* store.claimDue(claim(at(20_010), 100, { perEndpoint: 2, perOrganization: 3 })))
          ).toEqual(ids(1, 2, 4, 7, 8))
          // endpoints and organizations at their bound are passed over
          expect(
            ours(
              yield* store.claimDue(
                claim(at(20_010), 100, { skipEndpoints: [one.id], skipOrganizations: [other.id] })
              )
            )
          ).toEqual(ids(5, 6))
          expect(ours(yield* store.claimDue(claim(at(20_010), 100)))).toEqual(ids(3))

          // the fifth attempt is claimed; once its back-off passes unrecorded, the claim fails it
          const fifth = yield* store.claimDue(claim(at(30_000), 100, { skipOrganizations: [other.id] }))
          expect(fifth.find((c) => c.delivery.endpoint_id === spent.id)?.delivery).toMatchObject({
            attempts: 5,
            next_attempt_at: at(30_480)
          })
          const after = yield* store.claimDue(claim(at(30_480), 100, { skipOrganizations: [other.id] }))
          expect(after.map((c) => c.delivery.endpoint_id)).not.toContain(spent.id)
          const [failed] = (yield* store.listDeliveries(org.id, spent.id, page(1))).items
          expect(failed).toMatchObject({
            attempts: 5,
            status: "failed",
            next_attempt_at: null,
            last_status_code: null,
            last_error: "timeout"
          })
        })
    )
  })
}
