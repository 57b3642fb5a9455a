import { HttpApiBuilder, HttpApiScalar } from "@effect/platform"
import { Layer } from "effect"

/** Where the machine-readable document and the interactive reference are served. */
export const openApiPath = "/api/v1/public-openapi.json"
export const docsPath = "/api/v1/public-docs"

/** The OpenAPI document and the interactive reference (Scalar, inlined: works with no internet access). */
export const layer = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: openApiPath }),
  HttpApiScalar.layer({ path: docsPath })
)
