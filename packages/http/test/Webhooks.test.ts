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
import { Chunk, Effect, Layer, Option, TestClock } from "effect"
import type { AddressInfo } from "node:net"
import { createServer } from "node:http"
import * as AppLayer from "../src/AppLayer.js"
import * as OperatorAuthentication from "../src/middleware/OperatorAuthentication.js"
import * as NodeOutboundHttp from "../src/outbound/NodeOutboundHttp.js"
import { createAgent, storeRun } from "./support/RunFixtures.js"
import {
  engineOverSql,
  json,
  loopbackAllowed,
  organization,
  rawClient,
  send,
  TestServer,
  TestServerOverSql
} from "./support/TestServer.js"

type Body = Record<string, any>

const now = "2026-02-10T11:00:00.000Z"
const endpointKeys = ["created_at", "description", "enabled", "events", "id", "url"]

describe.each([
  ["in-memory", TestServer],
  ["SQL (embedded PostgreSQL)", TestServerOverSql]
] as const)("webhook endpoints over HTTP, %s storage", (_, server) => {
  it.effect("creates an endpoint with its secret once, lists, reads, updates and deletes it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(new Date(now).getTime())
      const { apiKey } = yield* organization()
      const client = yield* rawClient(apiKey)
      const created = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://crm.example.com/hooks", description: " CRM " })
      )
      expect(created.status).toBe(200)
      const endpoint = created.body as Body
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^whk_[A-Za-z0-9]{20}$/),
        url: "https://crm.example.com/hooks",
        description: "CRM",
        events: [
          "call.started",
          "call.ended",
          "call.deleted",
          "campaign.started",
          "campaign.completed",
          "campaign.contact.skipped"
        ],
        enabled: true,
        created_at: now,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)
      })
      yield* TestClock.adjust("1 second")
      const second = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:8080/in", events: ["call.ended"] })
      )
      expect(second.body).toMatchObject({ events: ["call.ended"], description: null })

      const list = yield* send(client, HttpClientRequest.get("/api/v1/webhooks?limit=1"))
      expect(list.status).toBe(200)
      expect(list.body).toEqual({
        items: [expect.objectContaining({ id: (second.body as Body).id })],
        total_count: 2,
        total_pages: 2,
        page: 1,
        limit: 1
      })
      expect(Object.keys((list.body as Body).items[0]).sort()).toEqual(endpointKeys)
      const page2 = yield* send(client, HttpClientRequest.get("/api/v1/webhooks?limit=1&page=2"))
      expect((page2.body as Body).items.map((e: Body) => e.id)).toEqual([endpoint.id])

      const path = `/api/v1/webhooks/${endpoint.id}`
      const read = yield* send(client, HttpClientRequest.get(path))
      expect(read.status).toBe(200)
      const { secret: _secret, ...withoutSecret } = endpoint
      expect(read.body).toEqual(withoutSecret)

      const patched = yield* send(
        client,
        json("PATCH", path, { url: "https://crm.example.com/v2", events: ["call.deleted"], enabled: false })
      )
      expect(patched.status).toBe(200)
      expect(patched.body).toEqual({
        ...withoutSecret,
        url: "https://crm.example.com/v2",
        events: ["call.deleted"],
        enabled: false
      })
      const unchanged = yield* send(client, json("PATCH", path, {}))
      expect(unchanged.body).toEqual(patched.body)

      const deleted = yield* send(client, HttpClientRequest.del(path))
      expect(deleted.status).toBe(204)
      expect(deleted.text).toBe("")
      const gone = yield* send(client, HttpClientRequest.get(path))
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ detail: `Webhook endpoint ${endpoint.id} not found` })
      expect((yield* send(client, HttpClientRequest.del(path))).status).toBe(404)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 404 for another organization's or an unknown endpoint", () =>
    Effect.gen(function* () {
      const owner = yield* rawClient((yield* organization()).apiKey)
      const stranger = yield* rawClient((yield* organization()).apiKey)
      const created = yield* send(owner, json("POST", "/api/v1/webhooks", { url: "https://a.example/h" }))
      const id = (created.body as Body).id as string
      const notFound = { detail: `Webhook endpoint ${id} not found` }
      for (const request of [
        HttpClientRequest.get(`/api/v1/webhooks/${id}`),
        json("PATCH", `/api/v1/webhooks/${id}`, { enabled: false }),
        HttpClientRequest.del(`/api/v1/webhooks/${id}`),
        HttpClientRequest.get(`/api/v1/webhooks/${id}/deliveries`)
      ]) {
        const answer = yield* send(stranger, request)
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual(notFound)
      }
      expect((yield* send(stranger, HttpClientRequest.get("/api/v1/webhooks"))).body).toMatchObject({
        items: [],
        total_count: 0
      })
      const unknown = yield* send(owner, HttpClientRequest.get("/api/v1/webhooks/whk_nope"))
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ detail: "Webhook endpoint whk_nope not found" })
      // the owner still has it
      expect((yield* send(owner, HttpClientRequest.get(`/api/v1/webhooks/${id}`))).status).toBe(200)
    }).pipe(Effect.provide(server))
  )

  it.effect("answers 422 for a bad url, events, unknown fields and page bounds", () =>
    Effect.gen(function* () {
      const client = yield* rawClient((yield* organization()).apiKey)
      const locs = (body: unknown) =>
        (body as { detail: Array<{ loc: Array<string> }> }).detail.map((d) => d.loc.join("."))
      for (const url of [
        "ftp://example.com/x",
        "/relative/path",
        "not a url",
        "https://user:pw@example.com/"
      ]) {
        const bad = yield* send(client, json("POST", "/api/v1/webhooks", { url }))
        expect(bad.status).toBe(422)
        expect(locs(bad.body)).toEqual(["body.url"])
      }
      const invalid = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://a.example/h", events: ["call.exploded"], extra: 1 })
      )
      expect(invalid.status).toBe(422)
      expect(locs(invalid.body)).toEqual(expect.arrayContaining(["body.events.0", "body.extra"]))
      const empty = yield* send(
        client,
        json("POST", "/api/v1/webhooks", { url: "https://a.example/h", events: [] })
      )
      expect(empty.status).toBe(422)
      expect(locs(empty.body)).toEqual(["body.events"])
      const missing = yield* send(client, json("POST", "/api/v1/webhooks", {}))
      expect(missing.status).toBe(422)
      expect(locs(missing.body)).toEqual(["body.url"])

      const created = yield* send(client, json("POST", "/api/v1/webhooks", { url: "https://a.example/h" }))
      const id = (created.body as Body).id as string
      const patch = yield* send(
        client,
        json("PATCH", `/api/v1/webhooks/${id}`, { enabled: "yes", secret: "x" })
      )
      expect(patch.status).toBe(422)
      expect(locs(patch.body)).toEqual(expect.arrayContaining(["body.enabled", "body.secret"]))
      for (const query of ["limit=0", "limit=101", "page=0"]) {
        const list = yield* send(client, HttpClientRequest.get(`/api/v1/webhooks?${query}`))
        expect(list.status).toBe(422)
        const log = yield* send(client, HttpClientRequest.get(`/api/v1/webhooks/${id}/deliveries?${query}`))
        expect(log.status).toBe(422)
      }
    }).pipe(Effect.provide(server))
  )
})

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

/** Waits in real time (the test clock does not move network I/O) until `done`, for at most 5 s. */
const eventually = <E, R>(done: Effect.Effect<boolean, E, R>, what = "condition") =>
  Effect.gen(function* () {
    for (let i = 0; i < 500; i++) {
      if (yield* done) return
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    return yield* Effect.dieMessage(`${what} not met in time`)
  })

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
          `dispatcher parked (${i})`
        )
        clock = new Date(clock.getTime() + 1000)
        yield* TestClock.adjust("1 second")
      }
      yield* eventually(
        Effect.map(attemptsLogged, (n) => n >= logged && hook.state.requests >= requests),
        `${logged} attempts logged`
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
        "answers recorded"
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
