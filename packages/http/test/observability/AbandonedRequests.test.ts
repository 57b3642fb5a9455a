import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import type { AccessLogEntry } from "../../src/observability/AccessLog.js"
import { observe } from "../../src/observability/RequestObservation.js"

describe("RequestObservation: a request the client abandons", () => {
  it.effect.each([
    ["with a tracer", true],
    ["without a tracer", false]
  ] as const)(
    "is still logged, with status 499 and the caller's request id, when its handler is interrupted (%s)",
    ([, tracerEnabled]) =>
      Effect.gen(function* () {
        const entries: Array<AccessLogEntry> = []
        const handlerStarted = yield* Deferred.make<void>()
        // a handler that waits forever, as one waiting on a slow body or a slow dependency does
        const app = Effect.zipRight(Deferred.succeed(handlerStarted, undefined), Effect.never)
        const observed = observe(
          () => "/api/v1/slow",
          (entry) => Effect.sync(() => entries.push(entry))
        )(app)
        const request = HttpServerRequest.fromWeb(
          new Request("http://127.0.0.1/api/v1/slow?signature=secret", {
            method: "POST",
            headers: { "x-request-id": "abandoned-0001" }
          })
        )
        const fiber = yield* Effect.fork(
          Effect.withTracerEnabled(
            Effect.provideService(observed, HttpServerRequest.HttpServerRequest, request),
            tracerEnabled
          )
        )
        yield* Deferred.await(handlerStarted)
        // what the platform does when the client's connection closes before the answer
        yield* Fiber.interrupt(fiber)
        expect(entries).toHaveLength(1)
        expect(entries[0]).toMatchObject({
          request_id: "abandoned-0001",
          method: "POST",
          route: "/api/v1/slow",
          status: 499
        })
      })
  )
})
