import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ServiceUnavailable } from "../errors/ApiErrors.js"

/** Liveness and readiness probes. Open, at the root. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" }))
      .annotateContext(
        OpenApi.annotations({
          summary: "Health",
          description: "Liveness: answers 200 while the process runs. Needs no API key."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ready") }).annotations({ identifier: "Ready" }))
      .addError(ServiceUnavailable)
      .annotateContext(
        OpenApi.annotations({
          summary: "Readiness",
          description: "Readiness: 200 when the storage answers within 2 seconds, else 503. Needs no API key."
        })
      )
  ) {}
