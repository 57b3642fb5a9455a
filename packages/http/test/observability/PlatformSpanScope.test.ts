import { HttpMiddleware, HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Api } from "@voice-agent-platform/contract/Api.js"
import { Effect, FiberRef, Layer } from "effect"
import * as RequestObservation from "../../src/observability/RequestObservation.js"

const requestTo = (method: string, path: string) =>
  HttpServerRequest.fromWeb(new Request(`http://127.0.0.1${path}`, { method }))

describe("RequestObservation: the platform's own server span", () => {
  it.scoped(
    "is off for the API's requests only; an embedder's routes (and its own predicate) keep theirs",
    () =>
      Effect.gen(function* () {
        // an embedder that had already turned the platform's span off for its health checks
        yield* Effect.locallyScoped(
          HttpMiddleware.currentTracerDisabledWhen,
          (request) => request.url === "/healthz"
        )
        yield* Layer.build(RequestObservation.layer(Api, ["/metrics"]))
        const disabledFor = yield* FiberRef.get(HttpMiddleware.currentTracerDisabledWhen)
        expect(disabledFor(requestTo("GET", "/api/v1/agents?signature=abc"))).toBe(true)
        expect(disabledFor(requestTo("POST", "/api/v1/do-not-call"))).toBe(true)
        expect(disabledFor(requestTo("GET", "/metrics"))).toBe(true)
        expect(disabledFor(requestTo("GET", "/healthz"))).toBe(true)
        expect(disabledFor(requestTo("GET", "/embedder/orders"))).toBe(false)
      })
  )
})
