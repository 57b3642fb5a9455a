/** The webhook dispatcher: signed attempts, back-off, giving up, and hung receivers held per organization. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref, TestClock } from "effect"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as WebhookDispatcher from "../../src/webhooks/WebhookDispatcher.js"
import type { WebhookRequest, WebhookResponse } from "../../src/webhooks/WebhookSender.js"
import { WebhookSender } from "../../src/webhooks/WebhookSender.js"
import * as WebhookSignature from "../../src/webhooks/WebhookSignature.js"
import { Webhooks } from "../../src/webhooks/Webhooks.js"
import { eventually } from "../../testing/Eventually.js"
import * as Fixtures from "../../testing/Fixtures.js"
import { engine } from "../services/Engine.js"
import { firstPage, Receiver, testLayer, setup, received, events } from "./WebhookFixtures.js"

const answered = (status: number) => ({ _tag: "Answered", status }) as const

/** How many sends to `dead.example` are hanging right now. */
const hung = Ref.unsafeMake(0)

/** A sender that never returns for `dead.example` and accepts everything else at once. */
const hangingSender = Layer.succeed(WebhookSender, {
  send: (request: WebhookRequest) =>
    request.url.startsWith("https://dead.example/")
      ? Effect.acquireUseRelease(
          Ref.update(hung, (n) => n + 1),
          () => Effect.never,
          () => Ref.update(hung, (n) => n - 1)
        )
      : Effect.succeed<WebhookResponse>({ _tag: "Answered", status: 204 })
})

const hangingLayer = Layer.mergeAll(engine, hangingSender)

describe("Webhooks", () => {
  it.effect("the dispatcher signs every attempt, retries with back-off and records the log", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const receiver = yield* Receiver
      const endpoint = yield* webhooks.create(organization.id, {
        url: "https://a.example/h",
        events: ["call.started"]
      })
      yield* Ref.set(receiver.script, [answered(503), { _tag: "NoAnswer", category: "timeout" }])
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      )
      const round = WebhookDispatcher.deliverDue()
      const state = Effect.map(
        webhooks.deliveries(organization.id, endpoint.id, firstPage),
        (p) => p.items[0]!
      )

      expect(yield* round).toBe(1)
      expect(yield* state).toMatchObject({
        attempts: 1,
        status: "pending",
        last_status_code: 503,
        last_error: "http_status",
        next_attempt_at: new Date("2026-02-10T11:00:30Z")
      })
      expect(yield* round).toBe(0)
      yield* TestClock.adjust("29 seconds")
      expect(yield* round).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(yield* round).toBe(1)
      expect(yield* state).toMatchObject({
        attempts: 2,
        status: "pending",
        last_status_code: null,
        last_error: "timeout",
        next_attempt_at: new Date("2026-02-10T11:01:30Z")
      })
      yield* TestClock.adjust("60 seconds")
      expect(yield* round).toBe(1)
      const delivered = yield* state
      expect(delivered).toMatchObject({
        attempts: 3,
        status: "delivered",
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        delivered_at: new Date("2026-02-10T11:01:30Z")
      })
      yield* TestClock.adjust("1 hour")
      expect(yield* round).toBe(0)

      const requests = yield* received
      expect(requests).toHaveLength(3)
      for (const request of requests) {
        expect(request.url).toBe("https://a.example/h")
        expect(request.headers["webhook-id"]).toBe(delivered.id)
        expect(request.headers["content-type"]).toBe("application/json")
        const verdict = yield* WebhookSignature.verify(
          endpoint.secret,
          {
            id: request.headers["webhook-id"]!,
            timestamp: request.headers["webhook-timestamp"]!,
            signature: request.headers["webhook-signature"]!
          },
          request.body,
          new Date(Number(request.headers["webhook-timestamp"]) * 1000)
        )
        expect(verdict).toEqual({ _tag: "Valid" })
      }
      expect(requests.map((r) => r.headers["webhook-timestamp"])).toEqual([
        "1770721200",
        "1770721230",
        "1770721290"
      ])
      expect(yield* events).toEqual(["call.started", "call.started", "call.started"])
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("gives up after five attempts, and at once on a 4xx", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const receiver = yield* Receiver
      const flaky = yield* webhooks.create(organization.id, {
        url: "https://a.example/h",
        events: ["call.started"]
      })
      yield* Ref.set(
        receiver.script,
        Array.from({ length: 10 }, () => answered(500))
      )
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      )
      for (let i = 0; i < 8; i++) {
        yield* WebhookDispatcher.deliverDue()
        yield* TestClock.adjust("10 minutes")
      }
      const [delivery] = (yield* webhooks.deliveries(organization.id, flaky.id, firstPage)).items
      expect(delivery).toMatchObject({
        attempts: 5,
        status: "failed",
        next_attempt_at: null,
        last_status_code: 500
      })

      const refused = yield* webhooks.create(organization.id, {
        url: "https://b.example/h",
        events: ["call.ended"]
      })
      yield* Ref.set(receiver.script, [answered(410)])
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, {
          type: "ended",
          status: "failed",
          duration_seconds: 0
        })
      )
      expect(yield* WebhookDispatcher.deliverDue()).toBe(1)
      const [gone] = (yield* webhooks.deliveries(organization.id, refused.id, firstPage)).items
      expect(gone).toMatchObject({ attempts: 1, status: "failed", last_status_code: 410 })
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("the background dispatcher delivers on its own once a second of the clock passes", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const webhooks = yield* Webhooks
      const endpoint = yield* webhooks.create(organization.id, { url: "https://a.example/h" })
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      )
      yield* Layer.launch(WebhookDispatcher.layer()).pipe(Effect.forkScoped)
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("1 second")
      // The round signs with Web Crypto, which answers on real time, not the test clock's: read until the
      // attempt is recorded (it failed as "pending" under CI's load when read at once).
      const delivery = yield* eventually(
        Effect.map(webhooks.deliveries(organization.id, endpoint.id, firstPage), (page) => page.items[0]),
        (found) => found !== undefined && found.status !== "pending",
        { what: "the background dispatcher's attempt" }
      )
      expect(delivery?.status).toBe("delivered")
      expect(yield* events).toEqual(["call.started"])
      expect(Option.isSome(Option.fromNullable(delivery?.delivered_at))).toBe(true)
    }).pipe(Effect.scoped, Effect.provide(testLayer))
  )

  it.effect(
    "a receiver that never answers holds only its own organization: another's event goes out in the same second, and the hung deliveries advance to failed",
    () =>
      Effect.gen(function* () {
        const a = yield* setup
        const b = yield* setup
        const webhooks = yield* Webhooks
        const deadEndpoints = yield* Effect.forEach([1, 2, 3, 4, 5], (n) =>
          webhooks.create(a.organization.id, { url: `https://dead.example/${n}` })
        )
        const healthy = yield* webhooks.create(b.organization.id, { url: "https://b.example/h" })
        const report = (organizationId: typeof a.organization.id, runId: typeof a.run.workflow_run_id) =>
          Effect.flatMap(CallEvents, (calls) =>
            Effect.zipRight(
              calls.report(organizationId, runId, { type: "ringing" }),
              calls.report(organizationId, runId, { type: "ended", status: "failed", duration_seconds: 0 })
            )
          )
        // A's ten deliveries are due first, then B's two.
        yield* report(a.organization.id, a.run.workflow_run_id)
        yield* TestClock.adjust("1 millis")
        yield* report(b.organization.id, b.run.workflow_run_id)
        yield* Layer.launch(WebhookDispatcher.layer()).pipe(Effect.forkScoped)
        for (let second = 0; second < 2; second++) {
          yield* TestClock.adjust("1 second")
          for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
        }
        // read until recorded: the attempts are signed with Web Crypto, on real time (see above)
        const delivered = yield* eventually(
          Effect.map(webhooks.deliveries(b.organization.id, healthy.id, firstPage), (page) => page.items),
          (items) => items.length === 2 && items.every((d) => d.status !== "pending"),
          { what: "B's two attempts" }
        )
        expect(delivered.map((d) => [d.status, d.attempts])).toEqual([
          ["delivered", 1],
          ["delivered", 1]
        ])
        // Each hung attempt is given up at its deadline; its next one was already counted when claimed.
        for (let step = 0; step < 4 * 20; step++) yield* TestClock.adjust("15 seconds")
        const hung = yield* Effect.forEach(deadEndpoints, (endpoint) =>
          Effect.map(webhooks.deliveries(a.organization.id, endpoint.id, firstPage), (page) => page.items)
        )
        expect(hung.flat().map((d) => [d.status, d.attempts, d.last_error, d.last_status_code])).toEqual(
          Array.from({ length: 10 }, () => ["failed", 5, "timeout", null])
        )
      }).pipe(Effect.scoped, Effect.provide(hangingLayer)),
    30_000
  )

  it.effect(
    "holds at most two attempts to one endpoint at a time, and the organization's other endpoints go on",
    () =>
      Effect.gen(function* () {
        const { agent, organization } = yield* setup
        const webhooks = yield* Webhooks
        const dead = yield* webhooks.create(organization.id, { url: "https://dead.example/one" })
        const healthy = yield* webhooks.create(organization.id, { url: "https://b.example/h" })
        const runs = yield* RunStore
        const calls = yield* CallEvents
        for (let n = 0; n < 3; n++) {
          const run = yield* runs.insert(Fixtures.newRun(organization.id, agent.id), Fixtures.epoch)
          yield* calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
          yield* calls.report(organization.id, run.workflow_run_id, {
            type: "ended",
            status: "failed",
            duration_seconds: 0
          })
        }
        yield* Layer.launch(WebhookDispatcher.layer()).pipe(Effect.forkScoped)
        // two of the healthy endpoint's deliveries a round; the dead one's hang (their guard is 11 s away)
        for (let second = 0; second < 8; second++) {
          yield* TestClock.adjust("1 second")
          for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
        }
        const log = (endpoint: typeof dead) =>
          Effect.map(webhooks.deliveries(organization.id, endpoint.id, firstPage), (page) => page.items)
        expect((yield* log(healthy)).map((d) => d.status)).toEqual(
          Array.from({ length: 6 }, () => "delivered")
        )
        // two attempts claimed and hung; the other four wait, unclaimed, with no attempt counted
        expect((yield* log(dead)).map((d) => d.attempts).sort()).toEqual([0, 0, 0, 0, 1, 1])
        expect(yield* Ref.get(hung)).toBe(2)
      }).pipe(Effect.scoped, Effect.provide(hangingLayer))
  )
})
