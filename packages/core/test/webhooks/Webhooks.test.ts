import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { Runs } from "../../src/runs/Runs.js"
import * as WebhookSignature from "../../src/webhooks/WebhookSignature.js"
import { Webhooks } from "../../src/webhooks/Webhooks.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { firstPage, testLayer, setup } from "./WebhookFixtures.js"

describe("Webhooks", () => {
  it.effect("manages endpoints: a fresh secret once, all events by default, updates, deletion, tenancy", () =>
    Effect.gen(function* () {
      const { organization } = yield* setup
      const other = yield* Fixtures.organization()
      const webhooks = yield* Webhooks
      const endpoint = yield* webhooks.create(organization.id, { url: "https://example.com/hooks" })
      expect(endpoint).toMatchObject({
        url: "https://example.com/hooks",
        description: null,
        events: [
          "call.started",
          "call.ended",
          "call.deleted",
          "call.analyzed",
          "campaign.started",
          "campaign.completed",
          "campaign.contact.skipped"
        ],
        enabled: true,
        created_at: new Date("2026-02-10T11:00:00Z")
      })
      expect(endpoint.id).toMatch(/^whk_[A-Za-z0-9]{20}$/)
      expect(endpoint.secret).toMatch(/^whsec_/)
      expect(WebhookSignature.keyBytes(endpoint.secret)).toHaveLength(32)
      yield* TestClock.adjust("1 second")
      const second = yield* webhooks.create(organization.id, {
        url: "http://127.0.0.1:9/x",
        events: ["call.ended", "call.ended"],
        description: "CRM"
      })
      expect(second.events).toEqual(["call.ended"])
      expect(second.secret).not.toBe(endpoint.secret)

      expect((yield* webhooks.list(organization.id, firstPage)).items.map((e) => e.id)).toEqual([
        second.id,
        endpoint.id
      ])
      expect((yield* webhooks.list(other.id, firstPage)).total_count).toBe(0)
      const missing = yield* Effect.flip(webhooks.get(other.id, endpoint.id))
      expect(missing).toMatchObject({ _tag: "WebhookEndpointNotFound", webhook_id: endpoint.id })
      expect((yield* Effect.flip(webhooks.get(organization.id, "nope")))._tag).toBe("WebhookEndpointNotFound")

      const updated = yield* webhooks.update(organization.id, endpoint.id, {
        enabled: false,
        events: ["call.deleted"]
      })
      expect(updated).toEqual({ ...endpoint, enabled: false, events: ["call.deleted"] })
      expect((yield* Effect.flip(webhooks.update(other.id, endpoint.id, { enabled: true })))._tag).toBe(
        "WebhookEndpointNotFound"
      )
      expect((yield* Effect.flip(webhooks.remove(other.id, endpoint.id)))._tag).toBe(
        "WebhookEndpointNotFound"
      )
      yield* webhooks.remove(organization.id, endpoint.id)
      expect(Either.isLeft(yield* Effect.either(webhooks.get(organization.id, endpoint.id)))).toBe(true)
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("call events emit call.started once and call.ended, to subscribed enabled endpoints only", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const calls = yield* CallEvents
      const all = yield* webhooks.create(organization.id, { url: "https://a.example/h" })
      const endedOnly = yield* webhooks.create(organization.id, {
        url: "https://b.example/h",
        events: ["call.ended"]
      })
      const disabled = yield* webhooks.create(organization.id, { url: "https://c.example/h" })
      yield* webhooks.update(organization.id, disabled.id, { enabled: false })

      yield* calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      yield* calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      yield* calls.report(organization.id, run.workflow_run_id, { type: "answered" })
      yield* calls.report(organization.id, run.workflow_run_id, { type: "gathered", values: { ok: true } })
      yield* TestClock.adjust("12 seconds")
      yield* calls.report(organization.id, run.workflow_run_id, {
        type: "ended",
        status: "completed",
        duration_seconds: 12
      })

      const log = (id: string) =>
        Effect.map(webhooks.deliveries(organization.id, id, firstPage), (page) => page.items)
      const toAll = yield* log(all.id)
      expect(toAll.map((d) => d.event_type)).toEqual(["call.ended", "call.started"])
      expect((yield* log(endedOnly.id)).map((d) => d.event_type)).toEqual(["call.ended"])
      expect(yield* log(disabled.id)).toEqual([])
      const [ended, started] = toAll
      expect(started).toMatchObject({
        status: "pending",
        attempts: 0,
        run_id: run.workflow_run_id,
        payload: {
          type: "call.started",
          timestamp: "2026-02-10T11:00:00.000Z",
          data: { workflow_run_id: run.workflow_run_id, status: "ringing", mode: "phone" }
        }
      })
      expect(ended?.payload).toMatchObject({
        type: "call.ended",
        timestamp: "2026-02-10T11:00:12.000Z",
        data: {
          workflow_run_id: run.workflow_run_id,
          status: "completed",
          duration_seconds: 12,
          gathered_context: { ok: true },
          ended_at: "2026-02-10T11:00:12.000Z"
        }
      })
      expect(ended?.id).toMatch(/^msg_[A-Za-z0-9]{24}$/)
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("answering straight from queued starts the call too", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const endpoint = yield* webhooks.create(organization.id, { url: "https://a.example/h" })
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, { type: "answered" })
      )
      const page = yield* webhooks.deliveries(organization.id, endpoint.id, firstPage)
      expect(page.items.map((d) => d.event_type)).toEqual(["call.started"])
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("deleting a run purges its deliveries and emits call.deleted without its contexts", () =>
    Effect.gen(function* () {
      const { agent, organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const calls = yield* CallEvents
      const endpoint = yield* webhooks.create(organization.id, { url: "https://a.example/h" })
      yield* calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      yield* calls.report(organization.id, run.workflow_run_id, {
        type: "ended",
        status: "busy",
        duration_seconds: 0
      })
      expect((yield* webhooks.deliveries(organization.id, endpoint.id, firstPage)).total_count).toBe(2)
      yield* Effect.flatMap(Runs, (runs) =>
        runs.delete(organization.id, agent.public_id, run.workflow_run_id)
      )
      const log = (yield* webhooks.deliveries(organization.id, endpoint.id, firstPage)).items
      expect(log).toHaveLength(1)
      expect(log[0]?.payload).toEqual({
        type: "call.deleted",
        timestamp: "2026-02-10T11:00:00.000Z",
        data: { workflow_run_id: run.workflow_run_id, workflow_id: agent.id, status: "busy" }
      })
      expect(JSON.stringify(log[0])).not.toContain("do not leak")
    }).pipe(Effect.provide(testLayer))
  )
})
