import type { Services } from "@voice-agent-platform/core"
import { DownloadLinks, InMemory, Quotas } from "@voice-agent-platform/core"
import { Layer, Option, Redacted } from "effect"
import * as AppLayer from "../AppLayer.js"
import * as OperatorAuthentication from "../middleware/OperatorAuthentication.js"
import * as RuntimeAuthentication from "../middleware/RuntimeAuthentication.js"

/** How an embedded API is wired. */
export interface EmbeddingOptions {
  /**
   * The engine: services and ports. Default: everything in memory with the simulated voice runtime
   * (`InMemory.layerSimulated`). For data that outlives the process, build one over
   * `@voice-agent-platform/pg` (see docs/storage.md); a layer that fails to build (a database that cannot
   * be reached) makes every request fail until it is fixed.
   */
  readonly engine?: Layer.Layer<Services.Engine, unknown>
  /** Turns the operator API (`/admin/v1`) on. */
  readonly adminToken?: Redacted.Redacted<string>
  /** Turns the runtime ingestion routes (`/runtime/v1`) on, for out-of-process voice runtimes. */
  readonly runtimeToken?: Redacted.Redacted<string>
  /**
   * The secret that signs download links (at least 32 bytes). Default: random per process, which is
   * right only while a single process serves the data.
   */
  readonly linkSigningSecret?: Redacted.Redacted<string>
  /**
   * Records one organization may hold: `webhook_endpoints` (default 20) and `documents` (default
   * 1,000); one more is refused with 409. Each from 1 to 1,000,000. They apply to the engine built here
   * (the default, or an `engine` layer built with this API); an engine built beforehand takes
   * `Quotas.layer` where it is built.
   */
  readonly quotas?: Partial<Quotas.QuotaLimits>
}

/** The API over the chosen engine, ready to be served by any host. */
export const appLayer = (options: EmbeddingOptions = {}) =>
  AppLayer.layer.pipe(
    Layer.provide(OperatorAuthentication.layerToken(Option.fromNullable(options.adminToken))),
    Layer.provide(RuntimeAuthentication.layerToken(Option.fromNullable(options.runtimeToken))),
    Layer.provideMerge(
      options.linkSigningSecret === undefined
        ? DownloadLinks.layerRandom
        : Layer.orDie(DownloadLinks.layer(Redacted.value(options.linkSigningSecret)))
    ),
    Layer.provide(
      (options.engine ?? InMemory.layerSimulated).pipe(Layer.provide(Quotas.layer(options.quotas ?? {})))
    )
  )
