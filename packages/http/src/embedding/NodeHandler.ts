import { HttpApiBuilder } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as DirectRoutes from "../direct/DirectRoutes.js"
import type { EmbeddingOptions } from "./EmbeddingOptions.js"
import { appLayer } from "./EmbeddingOptions.js"

/** A Node request handler and how to release what it holds. */
export interface NodeHandler {
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void
  readonly dispose: () => Promise<void>
}

/**
 * The API as a Node `(req, res)` handler, for `node:http`, Express and Fastify. Mount it before any body
 * parser (Express: before `express.json()`; Fastify: hijack the reply), because it reads the body itself.
 */
export const make = (options: EmbeddingOptions = {}): NodeHandler => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(appLayer(options), HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer).pipe(
      Layer.provideMerge(NodeHttpServer.layerContext)
    )
  )
  // the API's operations on the engine's direct path, everything else on the platform's
  const ready = runtime.runPromise(
    Effect.zipWith(
      Effect.flatMap(HttpApiBuilder.httpApp, (app) => NodeHttpServer.makeHandler(app)),
      Effect.flatMap(DirectRoutes.DirectRoutes, (direct) => direct.listener),
      (platform, direct) => DirectRoutes.before(direct, platform)
    )
  )
  return {
    handler: (request, response) => {
      ready.then(
        (handle) => handle(request, response),
        (error: unknown) => {
          response.statusCode = 500
          response.setHeader("content-type", "application/json")
          response.end(JSON.stringify({ detail: "The API failed to start", reason: String(error) }))
        }
      )
    },
    dispose: () => runtime.dispose()
  }
}
