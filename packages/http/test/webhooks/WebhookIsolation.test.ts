import { HttpApiBuilder, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import {
  CallEvents,
  DownloadLinks,
  HostResolver,
  InMemory,
  IpAddress,
  RunId,
  WebhookDispatcher,
  WebhookSender
} from "@voice-agent-platform/core"
import { eventually } from "@voice-agent-platform/core/testing"
import { Chunk, Effect, Layer, Option, TestClock } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as NodeOutboundHttp from "../../src/outbound/NodeOutboundHttp.js"
import { createAgent, storeRun } from "../support/RunFixtures.js"
import { engineOverSql, json, loopbackAllowed, organization, rawClient, send } from "../support/TestServer.js"

type Body = Record<string, any>

const now = "2026-02-10T11:00:00.000Z"
/**
 * The receivers' deadline (real time). B's events must arrive before it cuts any of A's attempts, which the old dispatcher
 * (a round waiting for its attempts, eight at a time) could not do behind A's eight hung attempts. A's
 * attempts are ended sooner by the dispatcher's own guard (deadline + 1 s of the test clock) as the
 * test moves the clock; the client's real-time deadline is tested in `outbound/NodeOutboundHttp.test.ts`.
 */
const deadlineMillis = 8000

/**
 * The test server with the dispatcher on the test clock, sending through the outbound client; loopback
 * allowed (both receivers are on this machine); `internal.example.test` resolves to a private address.
 */
const dispatchingServer = <A, E>(engine: Layer.Layer<A, E>) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(AppLayer.layer),
    Layer.provide(OperatorAuthentication.layerToken(Option.none())),
    Layer.provide(DownloadLinks.layerRandom),
    Layer.provideMerge(
      WebhookDispatcher.layer({ timeout: `${deadlineMillis} millis` }).pipe(
        Layer.provide(WebhookSender.layer),
        Layer.provide(NodeOutboundHttp.layerWith),
        Layer.provide(
          HostResolver.layerFixed({
            "internal.example.test": [Option.getOrThrow(IpAddress.parseHost("10.0.0.7"))]
          })
        )
      )
    ),
    Layer.provideMerge(loopbackAllowed),
    Layer.provideMerge(engine),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )

interface Receiver {
  readonly url: string
  readonly connections: Array<Socket>
  readonly requests: Array<{ readonly id: string; readonly at: number }>
}

/** A receiver on 127.0.0.1 answering with `handle`; its connections are closed with the scope. */
const receiver = (handle: (request: IncomingMessage, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<Receiver & { readonly close: () => void }>((resume) => {
      const connections: Array<Socket> = []
      const requests: Array<{ id: string; at: number }> = []
      const server = createServer((request, response) => {
        requests.push({ id: String(request.headers["webhook-id"]), at: Date.now() })
        handle(request, response)
      })
      server.on("connection", (socket) => connections.push(socket))
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${port}`,
            connections,
            requests,
            close: () => {
              for (const socket of connections) socket.destroy()
              server.close()
            }
          })
        )
      })
    }),
    ({ close }) => Effect.sync(close)
  )

/** Moves the test clock one second at a time, each once the dispatcher has parked on it. */
const advance = (seconds: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < seconds; i++) {
      yield* eventually(
        Effect.map(TestClock.sleeps(), (sleeps) => Chunk.size(sleeps) > 0),
        (done) => done,
        { what: "dispatcher parked" }
      )
      yield* TestClock.adjust("1 second")
    }
  })

describe.each([
  ["in-memory", InMemory.layer],
  ["SQL (embedded PostgreSQL)", engineOverSql]
] as const)("webhook isolation through a real server, %s storage", (_, engine) => {
  it.effect(
    "a receiver that never answers delays only its organization: another's events arrive promptly, the hung deliveries end failed, a name resolving to a private address is refused unsent",
    () =>
      Effect.zipRight(
        TestClock.setTime(new Date(now).getTime()),
        isolation.pipe(Effect.provide(dispatchingServer(engine)))
      ),
    120_000
  )
})

const isolation = Effect.gen(function* () {
  const dead = yield* receiver(() => {
    // accepts the request and never answers
  })
  const healthy = yield* receiver((request, response) => {
    request.resume()
    request.on("end", () => response.writeHead(204).end())
  })
  const events = yield* CallEvents.CallEvents
  const tenant = Effect.gen(function* () {
    const owner = yield* organization()
    const client = yield* rawClient(owner.apiKey)
    const agent = yield* createAgent(client)
    const subscribe = (url: string) =>
      Effect.map(send(client, json("POST", "/api/v1/webhooks", { url })), (created) => {
        expect(created.status).toBe(200)
        return (created.body as Body).id as string
      })
    const call = Effect.gen(function* () {
      const run = yield* storeRun(owner.organization, agent.id)
      const runId = RunId.RunId.make(run.workflow_run_id)
      yield* events.report(owner.organization.id, runId, { type: "ringing" })
      yield* events.report(owner.organization.id, runId, { type: "answered" })
      yield* events.report(owner.organization.id, runId, {
        type: "ended",
        status: "completed",
        duration_seconds: 5
      })
    })
    const log = (endpointId: string) =>
      Effect.map(
        send(client, HttpClientRequest.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`)),
        (answer) => (answer.body as Body).items as Array<Body>
      )
    return { subscribe, call, log }
  })

  // A: four endpoints on a receiver that never answers; its eight deliveries are due first
  const a = yield* tenant
  const deadEndpoints = yield* Effect.forEach([1, 2, 3, 4], (n) => a.subscribe(`${dead.url}/a${n}`))
  yield* a.call
  yield* TestClock.adjust("1 millis")
  // B: one healthy receiver; C: a name that resolves to a private address
  const b = yield* tenant
  const healthyEndpoint = yield* b.subscribe(`${healthy.url}/b`)
  yield* b.call
  const c = yield* tenant
  const internalEndpoint = yield* c.subscribe(`http://internal.example.test:${healthy.url.split(":")[2]}/c`)
  yield* c.call

  // one round: B's two events arrive while A's attempts still hang (their real-time deadline has not cut
  // one connection yet), not after them
  yield* advance(1)
  yield* eventually(
    Effect.sync(() => healthy.requests.length >= 2),
    (done) => done,
    {
      what: "B's events delivered",
      withinMs: deadlineMillis
    }
  )
  expect(dead.connections.length).toBeGreaterThan(0)
  expect(dead.connections.filter((socket) => socket.destroyed)).toEqual([])
  yield* eventually(
    Effect.map(b.log(healthyEndpoint), (items) => items.every((d) => d.status === "delivered")),
    (done) => done,
    { what: "B's log settled" }
  )
  expect((yield* b.log(healthyEndpoint)).map((d) => [d.status, d.attempts, d.last_error])).toEqual([
    ["delivered", 1, null],
    ["delivered", 1, null]
  ])
  // C's delivery was refused before any connection: its log shows the category only
  yield* eventually(
    Effect.map(c.log(internalEndpoint), (items) => items.every((d) => d.status === "failed")),
    (done) => done,
    { what: "C's delivery refused" }
  )
  expect(
    (yield* c.log(internalEndpoint)).map((d) => [d.status, d.attempts, d.last_error, d.last_status_code])
  ).toEqual([
    ["failed", 1, "destination_not_allowed", null],
    ["failed", 1, "destination_not_allowed", null]
  ])
  expect(healthy.requests).toHaveLength(2)

  // A's attempts time out at the deadline and move on through their back-off to `failed`
  const aLog = Effect.map(Effect.forEach(deadEndpoints, a.log), (logs) => logs.flat())
  const attemptsRecorded = (n: number) =>
    Effect.map(aLog, (items) => items.every((d) => d.attempts >= n && d.last_error === "timeout"))
  yield* advance(Math.ceil(deadlineMillis / 1000) + 2)
  yield* eventually(attemptsRecorded(1), (done) => done, { what: "A's first attempts timed out" })
  for (const [seconds, attempt] of [
    [30, 2],
    [60, 3],
    [120, 4],
    [240, 5]
  ] as const) {
    // past the back-off (rounds need not fall on the second it ends), then past the attempt's deadline
    yield* advance(seconds + 5 + Math.ceil(deadlineMillis / 1000) + 2)
    yield* eventually(attemptsRecorded(attempt), (done) => done, { what: `A's attempt ${attempt} timed out` })
  }
  yield* eventually(
    Effect.map(aLog, (items) => items.every((d) => d.status === "failed")),
    (done) => done,
    { what: "A's deliveries failed" }
  )
  const final = yield* aLog
  expect(final).toHaveLength(8)
  expect(final.map((d) => [d.status, d.attempts, d.last_error, d.last_status_code])).toEqual(
    Array.from({ length: 8 }, () => ["failed", 5, "timeout", null])
  )
  expect(dead.requests).toHaveLength(40)
  // B's receiver heard nothing more, from anyone
  expect(healthy.requests).toHaveLength(2)
}).pipe(Effect.scoped)
