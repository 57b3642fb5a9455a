import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { Layer } from "effect"
import type { EmbeddingOptions } from "./EmbeddingOptions.js"
import { appLayer } from "./EmbeddingOptions.js"

/**
 * The API as a web-standard handler (`Request → Promise<Response>`), for Hono, Deno, Bun, Cloudflare-style
 * hosts and anything else that speaks fetch. Call `dispose` when the host shuts down.
 */
export const make = (options: EmbeddingOptions = {}) =>
  HttpApiBuilder.toWebHandler(Layer.mergeAll(appLayer(options), HttpServer.layerContext))
