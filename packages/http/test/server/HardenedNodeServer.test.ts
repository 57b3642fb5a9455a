import { HttpApiBuilder, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { DownloadLinks, InMemory, Organizations, OutboundPolicy } from "@voice-agent-platform/core"
import { eventually } from "@voice-agent-platform/core/testing"
import { Context, Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { request } from "node:http"
import * as AppLayer from "../../src/AppLayer.js"
import * as OperatorAuthentication from "../../src/middleware/OperatorAuthentication.js"
import * as RequestDeadline from "../../src/middleware/RequestDeadline.js"
import * as RuntimeAuthentication from "../../src/middleware/RuntimeAuthentication.js"
import * as HardenedNodeServer from "../../src/server/HardenedNodeServer.js"

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

  it.live("serves the API once built, and stops listening when its scope closes", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(serverLayer, scope)
      const address = Context.get(context, HttpServer.HttpServer).address
      const port = address._tag === "TcpAddress" ? address.port : 0
      // the address is the one it listens on (it listens once the app is served)
      expect(port).toBeGreaterThan(0)
      const { key } = yield* Context.get(context, Organizations.Organizations).create({ name: "Shutdown" })
      expect(yield* Effect.promise(() => get(port, "/api/v1/agents", { "x-api-key": key.api_key }))).toBe(200)
      yield* Scope.close(scope, Exit.void)
      expect(yield* Effect.promise(() => get(port, "/health", {}))).toBe("ECONNREFUSED")
    })
  )

  it.live(
    "on shutdown lets a request in flight finish, and at the deadline closes one whose handler hangs",
    () =>
      Effect.gen(function* () {
        // `/slow` answers once told to, `/hang` never (each says when it has its request), anything else at once
        const slowEntered = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()
        const hungEntered = yield* Deferred.make<void>()
        const app = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          request.url === "/slow"
            ? Effect.zipRight(
                Deferred.succeed(slowEntered, undefined),
                Effect.as(Deferred.await(finish), HttpServerResponse.text("finished"))
              )
            : request.url === "/hang"
              ? Effect.zipRight(Deferred.succeed(hungEntered, undefined), Effect.never)
              : Effect.succeed(HttpServerResponse.empty())
        )
        const server = HttpServer.serve(app).pipe(
          Layer.provideMerge(
            HardenedNodeServer.layer(
              { port: 0, host: "127.0.0.1" },
              { ...HardenedNodeServer.defaultLimits, shutdownDeadline: Duration.seconds(3) }
            )
          )
        )
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(server, scope)
        const address = Context.get(context, HttpServer.HttpServer).address
        const port = address._tag === "TcpAddress" ? address.port : 0
        const slow = get(port, "/slow", {})
        const hung = get(port, "/hang", {})
        yield* Deferred.await(slowEntered)
        yield* Deferred.await(hungEntered)

        const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
        // once it no longer takes connections, the slow request finishes, within the deadline
        yield* eventually(
          Effect.promise(() => get(port, "/health", {})),
          (status) => status === "ECONNREFUSED",
          { what: "the server stopped listening" }
        )
        yield* Deferred.succeed(finish, undefined)
        expect(yield* Effect.promise(() => slow)).toBe(200)
        // without the deadline the hung request would hold the shutdown for ever: a generous bound, not a
        // measurement (the deadline is 3 s)
        yield* Fiber.join(closing).pipe(
          Effect.timeoutFail({
            duration: Duration.seconds(20),
            onTimeout: () => "the shutdown waited for the hung request past its deadline"
          })
        )
        // the hung request's connection was closed, not answered
        expect(yield* Effect.promise(() => hung)).toMatch(/ECONNRESET|socket hang up/)
      })
  )
})
