import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Duration, Effect, Layer, Metric, Option, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import * as PrometheusText from "./PrometheusText.js"

/** Where the metrics are served. Not an operation of the public API: it is not in the OpenAPI document. */
export const metricsPath = "/metrics"

/** The bearer token `GET /metrics` asks for (`METRICS_TOKEN`); none: the metrics are open. */
export class MetricsToken extends Context.Reference<MetricsToken>()(
  "@voice-agent-platform/http/MetricsToken",
  {
    defaultValue: (): Option.Option<Redacted.Redacted<string>> => Option.none()
  }
) {}

/** The token set to this value (an empty value leaves the metrics open). */
export const layerToken = (token: Option.Option<Redacted.Redacted<string>>) =>
  Layer.succeed(
    MetricsToken,
    Option.filter(token, (value) => Redacted.value(value) !== "")
  )

/**
 * What is read at each scrape rather than counted as it happens (channels in use, the webhook backlog:
 * figures of the whole database, not of this process). The bundled server reads them from PostgreSQL.
 */
export class ScrapeGauges extends Context.Reference<ScrapeGauges>()(
  "@voice-agent-platform/http/ScrapeGauges",
  {
    defaultValue: (): Effect.Effect<void> => Effect.void
  }
) {}

const digest = (value: string) => createHash("sha256").update(value).digest()

/** Whether `Authorization: Bearer <token>` names the token, compared in constant time. */
const authorized = (header: string | undefined, token: Redacted.Redacted<string>): boolean => {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match !== null && timingSafeEqual(digest(match[1]!), digest(Redacted.value(token)))
}

const refused = HttpServerResponse.unsafeJson(
  { detail: "The metrics need Authorization: Bearer <METRICS_TOKEN>" },
  { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } }
)

/**
 * `GET /metrics`: every metric of Effect's registry (the requests, the calls, the webhooks, the dialer;
 * see docs/operations.md) in the Prometheus text format, behind `MetricsToken` when one is set.
 */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const token = yield* MetricsToken
    const gauges = yield* ScrapeGauges
    yield* router.get(
      metricsPath,
      Effect.gen(function* () {
        if (Option.isSome(token)) {
          const request = yield* HttpServerRequest.HttpServerRequest
          if (!authorized(request.headers["authorization"], token.value)) return refused
        }
        yield* gauges
        return HttpServerResponse.text(PrometheusText.render(yield* Metric.snapshot), {
          contentType: PrometheusText.contentType
        })
      })
    )
  })
)

/** How long a gauge reading is reused: scrapes within it cost no database query. */
export const gaugesReuseFor = Duration.seconds(5)
/** How long one gauge reading may take; past it the scrape is served with the figures read before. */
export const gaugesReadTimeout = Duration.seconds(2)

/**
 * `refresh` read at most once per `reuseFor` (scrapes in between, concurrent ones too, share the last
 * reading) and cut at `timeout`: a slow or failed reading leaves the gauges as they were and never fails
 * the scrape, so `/metrics` costs the database at most one bounded query per interval.
 */
export const boundedRefresh = <R>(
  refresh: Effect.Effect<void, never, R>,
  options: { readonly reuseFor: Duration.Duration; readonly timeout: Duration.Duration }
): Effect.Effect<Effect.Effect<void>, never, R> =>
  Effect.flatMap(Effect.context<R>(), (context) =>
    Effect.cachedWithTTL(
      refresh.pipe(
        Effect.timeout(options.timeout),
        Effect.catchAll(() =>
          Effect.logWarning("metrics: the storage gauges took too long; the last figures stand")
        ),
        Effect.provide(context)
      ),
      options.reuseFor
    )
  )

/**
 * The scrape-time gauges read by `refresh` (through `boundedRefresh`: reused for `gaugesReuseFor`, cut
 * at `gaugesReadTimeout`), with what it needs taken from where this layer is built.
 */
export const layerScrapeGauges = <R>(refresh: Effect.Effect<void, never, R>): Layer.Layer<never, never, R> =>
  Layer.effect(
    ScrapeGauges,
    boundedRefresh(refresh, { reuseFor: gaugesReuseFor, timeout: gaugesReadTimeout })
  ) as Layer.Layer<never, never, R>
