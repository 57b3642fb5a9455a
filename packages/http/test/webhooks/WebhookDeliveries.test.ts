/** Webhook deliveries end to end: a real receiver, signatures, retries and the delivery log. */
import { HttpApiBuilder, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import {
  CallEvents,
  DownloadLinks,
  InMemory,
  RunId,
  WebhookDispatcher,
  WebhookSender,
  WebhookSignature
} from "@voice-agent-platform/core"
import { eventually } from "@voice-agent-platform/core/testing"
import { Chunk, Effect, Layer, Option, TestClock } from "effect"
import type { AddressInfo } from "node:net"
import { createServer } from "node:http"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as NodeOutboundHttp from "../../src/outbound/NodeOutboundHttp.js"
import { createAgent, storeRun } from "../support/RunFixtures.js"
import { engineOverSql, json, loopbackAllowed, organization, rawClient, send } from "../support/TestServer.js"
import { type Body, now } from "../support/WebhookFixtures.js"

/**
 * The test server with the webhook dispatcher running on the test clock and sending through the
 * outbound client, loopback allowed.
 */
const dispatchingServer = <A, E>(engine: Layer.Layer<A, E>) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(AppLayer.layer),
    Layer.provide(OperatorAuthentication.layerToken(Option.none())),
    Layer.provide(DownloadLinks.layerRandom),
    Layer.provideMerge(
      WebhookDispatcher.layer().pipe(
        Layer.provide(WebhookSender.layer),
        Layer.provide(NodeOutboundHttp.layer)
      )
    ),
    Layer.provideMerge(loopbackAllowed),
    Layer.provideMerge(engine),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )

interface Received {
  readonly id: string
  readonly type: string
  readonly body: Body
}

/**
 * A webhook receiver on 127.0.0.1 (random port): verifies every signature with `WebhookSignature`
 * against the test clock's time, refuses the first two attempts of each message with 503, then accepts,
 * and keeps each event once per `webhook-id`.
 */
const receiver = (secret: () => string, clockNow: () => Date) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly state: ReceiverState; readonly close: () => void }>(
      (resume) => {
        const state: ReceiverState = {
          attempts: new Map(),
          accepted: new Map(),
          requests: 0,
          badSignatures: 0,
          duplicates: 0
        }
        const server = createServer((request, response) => {
          const chunks: Array<Buffer> = []
          request.on("data", (chunk: Buffer) => chunks.push(chunk))
          request.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8")
            const header = (name: string) => String(request.headers[name] ?? "")
            const id = header("webhook-id")
            Effect.runPromise(
              WebhookSignature.verify(
                secret(),
                { id, timestamp: header("webhook-timestamp"), signature: header("webhook-signature") },
                raw,
                clockNow()
              )
            ).then((verdict) => {
              state.requests++
              if (verdict._tag !== "Valid") {
                state.badSignatures++
                response.writeHead(401).end()
                return
              }
              const attempt = (state.attempts.get(id) ?? 0) + 1
              state.attempts.set(id, attempt)
              if (attempt <= 2) {
                response.writeHead(503).end("try later")
                return
              }
              if (state.accepted.has(id)) state.duplicates++
              else {
                const body = JSON.parse(raw) as Body
                state.accepted.set(id, { id, type: body.type as string, body })
              }
              response.writeHead(204).end()
            })
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo
          resume(
            Effect.succeed({ url: `http://127.0.0.1:${port}/hooks`, state, close: () => server.close() })
          )
        })
      }
    ),
    ({ close }) => Effect.sync(close)
  )

interface ReceiverState {
  readonly attempts: Map<string, number>
  readonly accepted: Map<string, Received>
  requests: number
  badSignatures: number
  duplicates: number
}

const deliveriesEndToEnd = Effect.gen(function* () {
  const owner = yield* organization()
  const client = yield* rawClient(owner.apiKey)
  const agent = yield* createAgent(client)
  let secret = ""
  let clock = new Date(now)
  const hook = yield* receiver(
    () => secret,
    () => clock
  )
  const created = yield* send(client, json("POST", "/api/v1/webhooks", { url: hook.url }))
  expect(created.status).toBe(200)
  const endpoint = created.body as Body
  secret = endpoint.secret as string
  const log = Effect.map(
    send(client, HttpClientRequest.get(`/api/v1/webhooks/${endpoint.id}/deliveries`)),
    (answer) => answer.body as Body
  )
  const attemptsLogged = Effect.map(log, (page) =>
    (page.items as Array<Body>).reduce((sum, d) => sum + (d.attempts as number), 0)
  )
  /**
   * Moves the clock one second at a time, each time once the dispatcher has parked on it (so each round
   * reads the time it woke for), then waits until the log shows `logged` attempts and the receiver got `requests`.
   */
  const step = (seconds: number, logged: number, requests = logged) =>
    Effect.gen(function* () {
      for (let i = 0; i < seconds; i++) {
        yield* eventually(
          Effect.map(TestClock.sleeps(), (sleeps) => Chunk.size(sleeps) > 0),
          (done) => done,
          { what: `dispatcher parked (${i})` }
        )
        clock = new Date(clock.getTime() + 1000)
        yield* TestClock.adjust("1 second")
      }
      yield* eventually(
        Effect.map(attemptsLogged, (n) => n >= logged && hook.state.requests >= requests),
        (done) => done,
        { what: `${logged} attempts logged` }
      )
    })
  const byType = (items: Array<Body>) =>
    [...items].sort((a, b) => String(a.event_type).localeCompare(String(b.event_type)))

  const run = yield* storeRun(owner.organization, agent.id, { initial_context: { note: "private" } })
  const runId = RunId.RunId.make(run.workflow_run_id)
  const events = yield* CallEvents.CallEvents
  yield* events.report(owner.organization.id, runId, { type: "ringing" })
  yield* events.report(owner.organization.id, runId, { type: "answered" })
  yield* events.report(owner.organization.id, runId, {
    type: "ended",
    status: "completed",
    duration_seconds: 42
  })

  /** The log once no attempt is in flight: every counted attempt has its answer recorded. */
  const settledLog = (answered: (d: Body) => boolean) =>
    Effect.zipRight(
      eventually(
        Effect.map(log, (page) => (page.items as Array<Body>).every(answered)),
        (done) => done,
        { what: "answers recorded" }
      ),
      log
    )

  // two events: refused twice each (30 s, then 60 s back-off), accepted on the third attempt
  yield* step(1, 2)
  const waiting = yield* settledLog((d) => d.last_status_code === 503)
  expect(byType(waiting.items)).toEqual([
    expect.objectContaining({
      event_type: "call.ended",
      attempts: 1,
      status: "pending",
      last_status_code: 503
    }),
    expect.objectContaining({
      event_type: "call.started",
      attempts: 1,
      status: "pending",
      last_status_code: 503
    })
  ])
  expect(waiting.items[0].next_attempt_at).toBe("2026-02-10T11:00:31.000Z")
  yield* step(30, 4)
  yield* step(60, 6)
  const delivered = yield* settledLog((d) => d.status === "delivered")
  expect(byType(delivered.items)).toEqual([
    {
      id: expect.stringMatching(/^msg_[A-Za-z0-9]{24}$/),
      webhook_id: endpoint.id,
      event_type: "call.ended",
      workflow_run_id: runId,
      payload: {
        type: "call.ended",
        timestamp: now,
        data: expect.objectContaining({
          workflow_run_id: runId,
          workflow_id: agent.id,
          status: "completed",
          duration_seconds: 42
        })
      },
      attempts: 3,
      status: "delivered",
      next_attempt_at: null,
      last_status_code: 204,
      last_error: null,
      created_at: now,
      delivered_at: "2026-02-10T11:01:31.000Z"
    },
    expect.objectContaining({ event_type: "call.started", attempts: 3, status: "delivered" })
  ])
  expect([...hook.state.accepted.values()].map((r) => r.type).sort()).toEqual(["call.ended", "call.started"])
  expect(hook.state.accepted.get(delivered.items[0].id)?.body).toEqual(delivered.items[0].payload)

  // deleting the call purges the deliveries about it and sends call.deleted, without its context
  const erased = yield* send(
    client,
    HttpClientRequest.del(`/api/v1/agents/${agent.public_id}/conversations/${runId}`)
  )
  expect(erased.status).toBe(204)
  expect((yield* log).items).toEqual([
    expect.objectContaining({ event_type: "call.deleted", attempts: 0, status: "pending" })
  ])
  yield* step(1, 1, 7)
  yield* step(30, 2, 8)
  yield* step(60, 3, 9)
  const final = yield* settledLog((d) => d.status === "delivered")
  expect(final.items).toEqual([
    expect.objectContaining({ event_type: "call.deleted", attempts: 3, status: "delivered" })
  ])
  const deletedEvent = hook.state.accepted.get(final.items[0].id)
  expect(deletedEvent?.body).toEqual({
    type: "call.deleted",
    timestamp: "2026-02-10T11:01:31.000Z",
    data: { workflow_run_id: runId, workflow_id: agent.id, status: "completed" }
  })

  // nothing more goes out, every signature verified, each webhook-id accepted exactly once
  yield* step(120, 3, 9)
  expect(hook.state.requests).toBe(9)
  expect(hook.state.badSignatures).toBe(0)
  expect(hook.state.duplicates).toBe(0)
  expect([...hook.state.accepted.values()].map((r) => r.type).sort()).toEqual([
    "call.deleted",
    "call.ended",
    "call.started"
  ])
  expect([...hook.state.attempts.values()]).toEqual([3, 3, 3])
}).pipe(Effect.scoped)

describe.each([
  ["in-memory", InMemory.layer],
  ["SQL (embedded PostgreSQL)", engineOverSql]
] as const)("webhook deliveries end to end, %s storage", (_, engine) => {
  it.effect(
    "signs every attempt, retries after 503s with back-off, and delivers each event once",
    () =>
      // The clock is set before the server starts: the dispatcher wakes once per second of clock time, so
      // moving the clock from 1970 with it running would step through every second in between.
      Effect.zipRight(
        TestClock.setTime(new Date(now).getTime()),
        deliveriesEndToEnd.pipe(Effect.provide(dispatchingServer(engine)))
      ),
    30_000
  )
})
