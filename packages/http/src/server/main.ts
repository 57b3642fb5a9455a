import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import * as Observability from "../observability/Observability.js"
import * as Server from "./Server.js"

// `npm start`: run the bundled server until SIGTERM or SIGINT, logging, tracing and counting as the
// environment says (LOG_FORMAT, LOG_LEVEL, OTEL_EXPORTER_OTLP_ENDPOINT, METRICS_TOKEN).
NodeRuntime.runMain(Layer.launch(Server.layer.pipe(Layer.provide(Observability.layerFromEnv))))
