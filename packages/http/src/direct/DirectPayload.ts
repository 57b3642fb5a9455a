import type { HttpApiEndpoint } from "@effect/platform"
import { HttpApiSchema, HttpMethod, HttpServerRequest, UrlParams } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Effect, Option, Schema } from "effect"

/**
 * An operation's payload as the direct routes read it: what the platform's `HttpApiBuilder` route does
 * for the same operation, step for step (the body read by its `Content-Type`, then decoded with the
 * payload's schema, a failure of which is the API's 422), for every operation but those taking a
 * multipart body, which keep the platform's path (their parts are persisted in the request's scope and
 * file system, under the platform's multipart limits).
 */

/** How one operation's payload is read: `none` (it takes none), `platform` (not on the direct path), or a reader. */
export type PayloadReader =
  | { readonly _tag: "None" }
  | { readonly _tag: "Platform" }
  | {
      readonly _tag: "Reader"
      readonly read: (
        request: HttpServerRequest.HttpServerRequest,
        searchParams: Readonly<Record<string, string | Array<string>>>
      ) => Effect.Effect<unknown, HttpApiDecodeError>
    }

const none: PayloadReader = { _tag: "None" }
const platform: PayloadReader = { _tag: "Platform" }

/**
 * The body as the platform reads it for a payload: by the request's `Content-Type` (JSON when it has
 * none), read through the request in context (the edge's, which applies the operation's media types and
 * byte limit); a body that cannot be read is a defect, as the platform makes it (the response shaping
 * answers it: 413, 415, a malformed body's 422). A method without a body gives its query instead.
 */
const body = (
  request: HttpServerRequest.HttpServerRequest,
  searchParams: Readonly<Record<string, string | Array<string>>>
): Effect.Effect<unknown> => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(searchParams)
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("x-www-form-urlencoded"))
    return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  // a multipart body sent to an operation that takes none is refused by the edge (415) as it is read
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

/** The reader of `endpoint`'s payload (see `PayloadReader`). */
export const readerOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps): PayloadReader => {
  if (Option.isNone(endpoint.payloadSchema)) return none
  const schema = endpoint.payloadSchema.value as Schema.Schema<unknown, unknown, never>
  if (
    HttpApiSchema.getMultipart(schema.ast) !== undefined ||
    HttpApiSchema.getMultipartStream(schema.ast) !== undefined
  )
    return platform
  // as an effect, as the platform decodes a payload (a schema's transformation may be one)
  const decode = Schema.decodeUnknown(schema)
  return {
    _tag: "Reader",
    read: (request, searchParams) =>
      Effect.flatMap(body(request, searchParams), (payload) =>
        Effect.catchAll(decode(payload), HttpApiDecodeError.refailParseError)
      )
  }
}
