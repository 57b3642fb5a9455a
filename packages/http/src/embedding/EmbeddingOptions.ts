import type { Services } from "@voice-agent-platform/core"
import { AllowList, DownloadLinks, InMemory, OutboundPolicy, Quotas } from "@voice-agent-platform/core"
import type { Duration } from "effect"
import { Either, Layer, Option, Redacted } from "effect"
import * as AppLayer from "../AppLayer.js"
import * as ConsoleRoutes from "../console/ConsoleRoutes.js"
import * as PublicBaseUrl from "../files/PublicBaseUrl.js"
import * as RequestDeadline from "../middleware/RequestDeadline.js"
import * as OperatorAuthentication from "../middleware/OperatorAuthentication.js"
import * as RuntimeAuthentication from "../middleware/RuntimeAuthentication.js"
import * as NodeOutboundHttp from "../outbound/NodeOutboundHttp.js"

/** How an embedded API is wired. */
export interface EmbeddingOptions {
  /**
   * The engine: services and ports. Default: everything in memory with the simulated voice runtime, whose
   * calls use the agent's HTTP API tools through the guarded outbound client under `outboundAllowHosts`
   * (`defaultEngine`). For data that outlives the process, build one over
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
   * Host names, addresses and CIDR ranges (comma-separated, as `OUTBOUND_ALLOW_HOSTS`) that webhook and
   * tool URLs may name although they are loopback, private or otherwise refused. Default: none.
   */
  readonly outboundAllowHosts?: string
  /**
   * Records one organization may hold: `webhook_endpoints` (default 20), `documents` (default 1,000),
   * `campaigns` not yet ended (default 100) and active `api_keys` (default 20); one more is refused with 409. Each from 1 to 1,000,000. They apply to the engine built here
   * (the default, or an `engine` layer built with this API); an engine built beforehand takes
   * `Quotas.layer` where it is built.
   */
  readonly quotas?: Partial<Quotas.QuotaLimits>
  /**
   * Where download links point, e.g. `https://api.example.com/voice`. Without it (and without a trusted
   * host) links point to `http://localhost`: an embedded handler knows no address of its own, and the
   * request's `Host` is the client's word.
   */
  readonly publicBaseUrl?: string
  /**
   * The `Host` values whose origin links may take when `publicBaseUrl` is not set (`name` or `name:port`);
   * `["*"]` trusts any, as earlier versions did, which is right only behind a proxy that checks `Host`.
   */
  readonly trustedHosts?: ReadonlyArray<string>
  /**
   * How long a handler may take to produce its response before it is answered 503 (default 30 s;
   * `Duration.infinity` turns the deadline off). See docs/limits.md.
   */
  readonly requestDeadline?: Duration.DurationInput
  /**
   * Whether the web console is served at `/console` (default true; see docs/console.md). It reaches the
   * API at the same origin and prefix, so mount it with the API.
   */
  readonly console?: boolean
}

/** The outbound policy of the options; a malformed allow-list throws at once, naming the bad entry. */
export const outboundPolicyLayer = (
  options: EmbeddingOptions
): Layer.Layer<OutboundPolicy.OutboundPolicy> => {
  const parsed = AllowList.parse(options.outboundAllowHosts ?? "")
  if (Either.isLeft(parsed)) throw new Error(`outboundAllowHosts: ${parsed.left}`)
  return OutboundPolicy.layer(parsed.right)
}

/**
 * The default engine: the in-memory stores and files with the simulated voice runtime, whose calls run the
 * agent's HTTP API tools (as the bundled server's do) through `NodeOutboundHttp` under the options' policy.
 */
export const defaultEngine = (options: EmbeddingOptions = {}): Layer.Layer<Services.Engine> =>
  InMemory.layerSimulatedWithTools.pipe(
    Layer.provide(NodeOutboundHttp.layer),
    Layer.provide(outboundPolicyLayer(options))
  )

/** The API over the chosen engine, ready to be served by any host. */
export const appLayer = (options: EmbeddingOptions = {}) =>
  AppLayer.layer.pipe(
    Layer.provide(RequestDeadline.setting(options.requestDeadline ?? RequestDeadline.defaultDeadline)),
    Layer.provide(ConsoleRoutes.layerEnabled(options.console ?? true)),
    Layer.provide(OperatorAuthentication.layerToken(Option.fromNullable(options.adminToken))),
    Layer.provide(RuntimeAuthentication.layerToken(Option.fromNullable(options.runtimeToken))),
    Layer.provide(
      options.publicBaseUrl === undefined
        ? Layer.empty
        : Layer.orDie(PublicBaseUrl.layer(options.publicBaseUrl))
    ),
    Layer.provide(Layer.orDie(PublicBaseUrl.layerTrustedHosts(options.trustedHosts ?? []))),
    Layer.provideMerge(
      options.linkSigningSecret === undefined
        ? DownloadLinks.layerRandom
        : Layer.orDie(DownloadLinks.layer(Redacted.value(options.linkSigningSecret)))
    ),
    Layer.provideMerge(outboundPolicyLayer(options)),
    Layer.provide(
      (options.engine ?? defaultEngine(options)).pipe(Layer.provide(Quotas.layer(options.quotas ?? {})))
    )
  )
