import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"

/** Liveness: the process answers. Open, at the root. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" }))
      .annotate(OpenApi.Summary, "Health")
      .annotate(OpenApi.Description, "Answers 200 while the process runs. Needs no API key.")
  )
  .annotate(OpenApi.Exclude, false) {}
