import { FetchHttpClient, HttpClient, HttpClientError } from "@effect/platform"
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import { Config, ConfigError, Duration, Effect, Either, Layer, Option, Redacted } from "effect"

/** Where and as what spans are exported: OTLP/HTTP (JSON) to `url`. */
export interface TracingSettings {
  /** The collector's traces URL: `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  readonly url: string
  readonly serviceName: string
  /** `OTEL_EXPORTER_OTLP_HEADERS`: sent with every export (a collector's credentials); never logged. */
  readonly headers: Redacted.Redacted<Record<string, string>>
  readonly exportInterval: Duration.Duration
}

/** The service name spans carry when `OTEL_SERVICE_NAME` is not set. */
export const defaultServiceName = "voice-agent-platform"

/**
 * How long one export request may take (10 s, as OpenTelemetry's default `OTEL_EXPORTER_OTLP_TIMEOUT`):
 * a collector that accepts the connection and never answers fails the export (its spans are dropped and
 * the exporter pauses for a minute) instead of holding the exporter forever.
 */
export const exportTimeout = Duration.seconds(10)

/** The exporter's HTTP client: `fetch`, each request bounded by `timeout`. */
export const exporterClient = (timeout: Duration.Duration): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(
      HttpClient.HttpClient,
      HttpClient.transform((response, request) =>
        Effect.timeoutFail(response, {
          duration: timeout,
          onTimeout: () =>
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              description: `the collector did not answer within ${Duration.format(timeout)}`
            })
        })
      )
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))

/** `k1=v1,k2=v2`, values URL-encoded, as the OpenTelemetry specification writes headers; a malformed escape fails. */
const parseHeaders = (text: string): Either.Either<Record<string, string>, ConfigError.ConfigError> => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=")
    if (at <= 0) continue
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim()).toLowerCase()] = decodeURIComponent(
        pair.slice(at + 1).trim()
      )
    } catch {
      return Either.left(
        ConfigError.InvalidData(
          ["OTEL_EXPORTER_OTLP_HEADERS"],
          "OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs with URL-encoded values (a % escape is malformed)"
        )
      )
    }
  }
  return Either.right(headers)
}

/**
 * The standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT` (none or empty: no tracing), `OTEL_SERVICE_NAME`
 * (default `voice-agent-platform`), `OTEL_EXPORTER_OTLP_HEADERS` (default none) and
 * `OTEL_BSP_SCHEDULE_DELAY` (milliseconds between exports, default 5000).
 */
export const config: Config.Config<Option.Option<TracingSettings>> = Config.all({
  // set but empty: tracing off, as when unset
  endpoint: Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT")).pipe(
    Config.map(Option.filter((text) => text.trim() !== "")),
    Config.mapOrFail((text) =>
      Option.match(text, {
        onNone: () => Either.right(Option.none<URL>()),
        onSome: (value) =>
          URL.canParse(value)
            ? Either.right(Option.some(new URL(value)))
            : Either.left(
                ConfigError.InvalidData(
                  ["OTEL_EXPORTER_OTLP_ENDPOINT"],
                  "OTEL_EXPORTER_OTLP_ENDPOINT must be a URL such as http://otel-collector:4318"
                )
              )
      })
    )
  ),
  serviceName: Config.nonEmptyString("OTEL_SERVICE_NAME").pipe(Config.withDefault(defaultServiceName)),
  headers: Config.redacted("OTEL_EXPORTER_OTLP_HEADERS").pipe(Config.withDefault(Redacted.make(""))),
  delay: Config.integer("OTEL_BSP_SCHEDULE_DELAY").pipe(
    Config.validate({
      message: "OTEL_BSP_SCHEDULE_DELAY must be a number of milliseconds, 1 or more",
      validation: (n) => n >= 1
    }),
    Config.withDefault(5000)
  )
}).pipe(
  Config.mapOrFail(({ delay, endpoint, headers, serviceName }) =>
    Option.match(endpoint, {
      onNone: () => Either.right(Option.none<TracingSettings>()),
      onSome: (url) =>
        Either.map(parseHeaders(Redacted.value(headers)), (parsed) =>
          Option.some<TracingSettings>({
            url: `${url.href.replace(/\/+$/, "")}/v1/traces`,
            serviceName,
            headers: Redacted.make(parsed),
            exportInterval: Duration.millis(delay)
          })
        )
    })
  )
)

/**
 * Spans exported over OTLP/HTTP as JSON by `@effect/opentelemetry`'s own exporter (no OpenTelemetry SDK
 * loaded), in batches every `exportInterval` and once more at shutdown, each request bounded by
 * `exportTimeout`; the export itself is not traced.
 * Without settings, tracing is off: every span is a no-op and the server makes none.
 */
export const layer = (settings: Option.Option<TracingSettings>): Layer.Layer<never> =>
  Option.match(settings, {
    onNone: () => Layer.setTracerEnabled(false),
    onSome: (tracing) =>
      OtlpTracer.layer({
        url: tracing.url,
        resource: { serviceName: tracing.serviceName },
        headers: Redacted.value(tracing.headers),
        exportInterval: tracing.exportInterval
      }).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(exporterClient(exportTimeout)))
  })

/** `layer` with the settings read from the environment (`config`). */
export const layerFromEnv = Layer.unwrapEffect(Effect.map(config, layer))
