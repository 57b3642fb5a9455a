import { HttpApiBuilder, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { EmbeddingOptions } from "@voice-agent-platform/http"
import { Config, Effect, Layer, Option } from "effect"
import { createServer } from "node:http"

/** The host's own routes, on the same router as the API. */
const HostRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.all([
    router.get("/hello", HttpServerResponse.json({ hello: "from the host" })),
    router.get("/", HttpServerResponse.text("An Effect service that serves the Voice Agent Platform API"))
  ])
)

/**
 * Your own Effect HTTP server with the API composed in: `EmbeddingOptions.appLayer` is `AppLayer.layer`
 * with the embedding options (here: the engine in memory, the operator API on with `ADMIN_TOKEN`), served
 * by `HttpApiBuilder.serve` on `@effect/platform-node`'s server, with your middleware and routes.
 */
const Main = Layer.unwrapEffect(
  Effect.gen(function* () {
    const port = yield* Config.integer("PORT").pipe(Config.withDefault(3000))
    const adminToken = yield* Config.option(Config.redacted("ADMIN_TOKEN"))
    return HttpApiBuilder.serve().pipe(
      Layer.provide(HostRoutes),
      Layer.provide(
        EmbeddingOptions.appLayer(Option.isSome(adminToken) ? { adminToken: adminToken.value } : {})
      ),
      HttpServer.withLogAddress,
      Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
    )
  })
)

NodeRuntime.runMain(Layer.launch(Main))
