import type { Services } from "@voice-agent-platform/core"
import { DownloadLinks, InMemory } from "@voice-agent-platform/core"
import type { Duration } from "effect"
import { Layer, Option, Redacted } from "effect"
import * as AppLayer from "../AppLayer.js"
import * as RequestDeadline from "../middleware/RequestDeadline.js"
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
   * How long a handler may take to produce its response before it is answered 503 (default 30 s;
   * `Duration.infinity` turns the deadline off). See docs/limits.md.
   */
  readonly requestDeadline?: Duration.DurationInput
}

/** The API over the chosen engine, ready to be served by any host. */
export const appLayer = (options: EmbeddingOptions = {}) =>
  AppLayer.layer.pipe(
    Layer.provide(RequestDeadline.setting(options.requestDeadline ?? RequestDeadline.defaultDeadline)),
    Layer.provide(OperatorAuthentication.layerToken(Option.fromNullable(options.adminToken))),
    Layer.provide(RuntimeAuthentication.layerToken(Option.fromNullable(options.runtimeToken))),
    Layer.provideMerge(
      options.linkSigningSecret === undefined
        ? DownloadLinks.layerRandom
        : Layer.orDie(DownloadLinks.layer(Redacted.value(options.linkSigningSecret)))
    ),
    Layer.provide(options.engine ?? InMemory.layerSimulated)
  )
