import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exporterClient } from "../../src/observability/Tracing.js"

/** A collector on loopback that takes each request and never answers it. */
const silentCollector = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const server = createServer(() => {})
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

describe("the span exporter's HTTP client", () => {
  it.scopedLive("gives up on a collector that never answers after its timeout", () =>
    Effect.gen(function* () {
      const server = yield* silentCollector
      const port = (server.address() as AddressInfo).port
      const started = Date.now()
      const result = yield* HttpClient.post(`http://127.0.0.1:${port}/v1/traces`).pipe(
        Effect.provide(exporterClient(Duration.millis(200))),
        Effect.either
      )
      expect(result._tag).toBe("Left")
      if (result._tag === "Left") expect(String(result.left)).toContain("did not answer within")
      // bounded well under the test's own timeout, however loaded the machine
      expect(Date.now() - started).toBeLessThan(4000)
    })
  )
})
