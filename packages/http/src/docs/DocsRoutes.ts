import { HttpApi, HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect } from "effect"
import * as DocsPage from "./DocsPage.js"
import * as ScalarSource from "./ScalarSource.js"

/** Where the machine-readable document and the interactive reference are served. */
export const openApiPath = "/api/v1/public-openapi.json"
export const docsPath = "/api/v1/public-docs"

/**
 * The OpenAPI document and the interactive reference (Scalar, served from the package's own copy: works with
 * no internet access). The document is built once, on the first request of either route, not at start
 * (building it took ~0.5 s of a loaded start, and @effect/platform's two layers built it twice); both
 * routes serve that one document. The Scalar script is read on the first request of the docs page.
 */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const { api } = yield* HttpApi.Api
    const document = yield* Effect.cached(Effect.sync(() => OpenApi.fromApi(api)))
    const documentJson = yield* Effect.cached(
      Effect.flatMap(document, (spec) => HttpServerResponse.json(spec)).pipe(Effect.orDie)
    )
    const page = yield* Effect.cached(
      Effect.zipWith(document, ScalarSource.javascript, (spec, javascript) =>
        HttpServerResponse.html(DocsPage.html(spec, javascript))
      )
    )
    yield* router.get(openApiPath, documentJson)
    yield* router.get(docsPath, page)
  })
)
