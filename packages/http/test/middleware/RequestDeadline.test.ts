import { HttpApiBuilder, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DownloadLinks, InMemory, OutboundPolicy, Transactions } from "@voice-agent-platform/core"
import { Deferred, Duration, Effect, Fiber, Layer, Option, Redacted, Stream } from "effect"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as RequestDeadline from "../../src/middleware/RequestDeadline.js"
import * as RuntimeAuthentication from "../../src/middleware/RuntimeAuthentication.js"
import * as HardenedNodeServer from "../../src/server/HardenedNodeServer.js"
import { createAgent, storeRun, wav } from "../support/RunFixtures.js"
import { organization, send } from "../support/TestServer.js"

const runtimeToken = "runtime-token-0123456789"

/** The API over the in-memory engine with a 1 s request deadline, on the hardened Node server. */
const ServerWithDeadline = HttpApiBuilder.serve().pipe(
  Layer.provide(AppLayer.layer),
  Layer.provide(RequestDeadline.setting(Duration.seconds(1))),
  Layer.provide(OperatorAuthentication.layerToken(Option.none())),
  Layer.provide(RuntimeAuthentication.layerToken(Option.some(Redacted.make(runtimeToken)))),
  Layer.provide(DownloadLinks.layerRandom),
  Layer.provide(OutboundPolicy.layerDefault),
  Layer.provideMerge(InMemory.layer),
  Layer.provideMerge(
    HardenedNodeServer.layerTest(undefined, { narrowRequestContext: true, directRoutes: true })
  )
)

/**
 * Holds the in-memory storage's one lock until the fiber it answers is interrupted: every request that
 * reads or writes storage waits behind it.
 */
const holdTheStorage = Effect.gen(function* () {
  const transactions = yield* Transactions.Transactions
  const holding = yield* Deferred.make<void>()
  const holder = yield* Effect.fork(
    transactions.run(Effect.zipRight(Deferred.succeed(holding, undefined), Effect.never))
  )
  yield* Deferred.await(holding)
  return holder
})

describe("the per-request deadline", () => {
  it.live("answers 503 {detail} with X-Request-Id when a handler hangs, and the server goes on serving", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* organization()
      const client = yield* HttpClient.HttpClient
      const holder = yield* holdTheStorage
      const started = Date.now()
      const hung = yield* send(
        client,
        HttpClientRequest.get("/api/v1/agents").pipe(HttpClientRequest.setHeader("x-api-key", apiKey))
      ).pipe(Effect.timeout(Duration.seconds(20)))
      const elapsed = Date.now() - started
      expect(hung.status).toBe(503)
      expect(hung.headers["content-type"]).toContain("application/json")
      expect((hung.body as { detail: string }).detail).toMatch(/took longer than 1 s/)
      expect(hung.headers["x-request-id"]).toBeDefined()
      // 1 s deadline, generous room for a loaded machine
      expect(elapsed).toBeGreaterThanOrEqual(900)
      expect(elapsed).toBeLessThan(10_000)
      // once the storage is free again, the same request is answered
      yield* Fiber.interrupt(holder)
      const fine = yield* send(
        client,
        HttpClientRequest.get("/api/v1/agents").pipe(HttpClientRequest.setHeader("x-api-key", apiKey))
      )
      expect(fine.status).toBe(200)
    }).pipe(Effect.provide(ServerWithDeadline))
  )

  it.live(
    "answers a write (the platform's path, the handler in a fiber of its own) 503 at its deadline too",
    () =>
      Effect.gen(function* () {
        const { apiKey } = yield* organization()
        const client = yield* HttpClient.HttpClient
        const holder = yield* holdTheStorage
        const hung = yield* send(
          client,
          HttpClientRequest.post("/api/v1/agents/from-script").pipe(
            HttpClientRequest.setHeader("x-api-key", apiKey),
            HttpClientRequest.bodyUnsafeJson({ agent: { greeting: "Hello" } })
          )
        ).pipe(Effect.timeout(Duration.seconds(20)))
        expect(hung.status).toBe(503)
        expect(hung.headers["x-request-id"]).toBeDefined()
        yield* Fiber.interrupt(holder)
      }).pipe(Effect.provide(ServerWithDeadline))
  )

  it.live(
    "does not count the time a body takes to arrive: a slow recording upload read by its handler is answered",
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const { apiKey, organization: owner } = yield* organization()
        const agent = yield* createAgent(
          HttpClient.mapRequest(client, HttpClientRequest.setHeader("x-api-key", apiKey))
        )
        const run = yield* storeRun(owner, agent.id, { status: "in_progress" })
        // The WAV in three pieces over about 2.4 s, more than twice the deadline; the handler reads it as it comes.
        const pieces = [wav.slice(0, 20), wav.slice(20, 64), wav.slice(64)]
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const piece = pieces.shift()
            if (piece === undefined) return controller.close()
            await new Promise((resolve) => setTimeout(resolve, 800))
            controller.enqueue(piece)
          }
        })
        const started = Date.now()
        const answer = yield* send(
          client,
          HttpClientRequest.put(`/runtime/v1/runs/${run.workflow_run_id}/recording`).pipe(
            HttpClientRequest.bearerToken(runtimeToken),
            HttpClientRequest.bodyStream(
              Stream.fromReadableStream(
                () => body,
                (error) => error
              ),
              { contentType: "audio/wav" }
            )
          )
        )
        expect(Date.now() - started).toBeGreaterThan(1_500)
        expect(answer.status).toBe(200)
      }).pipe(Effect.provide(ServerWithDeadline))
  )
})
