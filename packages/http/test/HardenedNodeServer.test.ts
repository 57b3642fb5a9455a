import { HttpApiBuilder, HttpServer, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import {
  DownloadLinks,
  InMemory,
  Organizations,
  OutboundPolicy,
  Transactions
} from "@voice-agent-platform/core"
import { Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { request } from "node:http"
import * as AppLayer from "../src/AppLayer.js"
import * as OperatorAuthentication from "../src/middleware/OperatorAuthentication.js"
import * as RequestDeadline from "../src/middleware/RequestDeadline.js"
import * as RuntimeAuthentication from "../src/middleware/RuntimeAuthentication.js"
import * as HardenedNodeServer from "../src/server/HardenedNodeServer.js"

/** The API over the in-memory engine on the hardened server as the bundled server uses it, no request deadline. */
const serverLayer = HttpApiBuilder.serve().pipe(
  Layer.provide(AppLayer.layer),
  Layer.provide(RequestDeadline.setting(Duration.infinity)),
  Layer.provide(OperatorAuthentication.layerToken(Option.none())),
  Layer.provide(RuntimeAuthentication.layerToken(Option.none())),
  Layer.provide(DownloadLinks.layerRandom),
  Layer.provide(OutboundPolicy.layerDefault),
  Layer.provideMerge(InMemory.layer),
  Layer.provideMerge(
    HardenedNodeServer.layer(
      { port: 0, host: "127.0.0.1" },
      { ...HardenedNodeServer.defaultLimits, shutdownDeadline: Duration.seconds(1) },
      { narrowRequestContext: true }
    )
  )
)

/** A GET that resolves with its status, or with the error that ended its connection. */
const get = (port: number, path: string, headers: Record<string, string>) =>
  new Promise<number | string>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    req.end()
  })

/** A service an embedder provides to the server layer. */
class Greeting extends Context.Tag("test/HardenedNodeServer/Greeting")<Greeting, string>() {}

/** An embedder's app, served with `HttpServer.serve`, that reads `Greeting` while it answers. */
const embedderServer = (options: HardenedNodeServer.Options) =>
  HttpServer.serve(Effect.map(Greeting, (greeting) => HttpServerResponse.text(greeting))).pipe(
    Layer.provideMerge(HardenedNodeServer.layer({ port: 0, host: "127.0.0.1" }, undefined, options)),
    Layer.provide(Layer.succeed(Greeting, "hello"))
  )

/** The status of a GET / on the embedder's app served with the options. */
const embedderStatus = (options: HardenedNodeServer.Options) =>
  Effect.scoped(
    Effect.gen(function* () {
      const context = yield* Layer.build(embedderServer(options))
      const address = Context.get(context, HttpServer.HttpServer).address
      const port = address._tag === "TcpAddress" ? address.port : 0
      return yield* Effect.promise(() => get(port, "/", {}))
    })
  )

describe("the hardened Node server", () => {
  it.live("serves an embedder's app the services provided to the server layer, unless told to narrow", () =>
    Effect.gen(function* () {
      expect(yield* embedderStatus({})).toBe(200)
      expect(yield* embedderStatus({ narrowRequestContext: false })).toBe(200)
      // narrowed (the bundled server), a request's fiber holds the platform's services only
      expect(yield* embedderStatus({ narrowRequestContext: true })).toBe(500)
    })
  )

  it.live("serves once built, and at the shutdown deadline closes a connection whose handler hangs", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(serverLayer, scope)
      const address = Context.get(context, HttpServer.HttpServer).address
      const port = address._tag === "TcpAddress" ? address.port : 0
      // the address is the one it listens on (it listens once the app is served)
      expect(port).toBeGreaterThan(0)
      const { key } = yield* Context.get(context, Organizations.Organizations).create({ name: "Shutdown" })
      const headers = { "x-api-key": key.api_key }
      expect(yield* Effect.promise(() => get(port, "/api/v1/agents", headers))).toBe(200)

      // Hold the in-memory storage's lock: the next request's handler waits on it for ever.
      const holding = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(
        Context.get(context, Transactions.Transactions).run(
          Effect.zipRight(Deferred.succeed(holding, undefined), Effect.never)
        )
      )
      yield* Deferred.await(holding)
      const hung = get(port, "/api/v1/agents", headers)
      yield* Effect.sleep(Duration.millis(300))

      const stopping = Date.now()
      yield* Scope.close(scope, Exit.void).pipe(Effect.timeout(Duration.seconds(20)))
      const elapsed = Date.now() - stopping
      // 1 s of grace, with room for a loaded machine; without the deadline the hung request holds it for ever
      expect(elapsed).toBeGreaterThanOrEqual(900)
      expect(elapsed).toBeLessThan(8_000)
      // the hung request's connection was closed, not answered
      expect(yield* Effect.promise(() => hung)).toMatch(/ECONNRESET|socket hang up/)
      // and nothing listens any more
      expect(yield* Effect.promise(() => get(port, "/health", {}))).toBe("ECONNREFUSED")
      yield* Fiber.interrupt(holder)
    })
  )
})
