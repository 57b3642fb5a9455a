import { Config, Effect, Layer } from "effect"
import * as Logging from "./Logging.js"
import * as MetricsRoute from "./MetricsRoute.js"
import * as Tracing from "./Tracing.js"

/** `METRICS_TOKEN`: the bearer token `GET /metrics` asks for (default none: the metrics are open). */
export const metricsTokenConfig = Config.option(Config.redacted("METRICS_TOKEN"))

/**
 * The bundled server's observability, from the environment: logs (`LOG_FORMAT`, `LOG_LEVEL`), tracing
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`, …; off when unset) and the metrics' token
 * (`METRICS_TOKEN`). Provided around the whole server, so every fiber it starts logs and traces alike.
 */
export const layerFromEnv = Layer.unwrapEffect(
  Effect.gen(function* () {
    const logging = yield* Logging.config
    const tracing = yield* Tracing.config
    const metricsToken = yield* metricsTokenConfig
    return Layer.mergeAll(
      Logging.layer(logging),
      Tracing.layer(tracing),
      MetricsRoute.layerToken(metricsToken)
    )
  })
)
