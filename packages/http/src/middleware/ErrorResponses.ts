import type { HttpApi, HttpApiGroup, HttpApp } from "@effect/platform"
import { HttpApiBuilder, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Cause, Context, Effect, Option } from "effect"
import type { ApiError } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import {
  isApiError,
  NotFound,
  OutsideCallingHours,
  statusOf,
  ServiceUnavailable,
  TooManyRequests
} from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as ValidationErrors from "../errors/ValidationErrors.js"
import * as EdgeRequest from "../edge/EdgeRequest.js"
import * as StorableText from "@voice-agent-platform/contract/middleware/StorableText.js"

const requestIdPattern = /^[A-Za-z0-9._:-]{8,128}$/

/** The caller's `X-Request-Id` when it looks like one. */
export const givenRequestId = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const given = request.headers["x-request-id"]
  return given !== undefined && requestIdPattern.test(given) ? given : undefined
}

/** The request's id: the caller's `X-Request-Id` when it looks like one, else a fresh UUID. */
const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string =>
  givenRequestId(request) ?? globalThis.crypto.randomUUID()

/** An API error as its JSON response: the status of its class, its fields as the body, `Retry-After` when it has one. */
export const render = (error: ApiError): HttpServerResponse.HttpServerResponse => {
  const { retryAfterSeconds: _, ...body } = error as ApiError & { retryAfterSeconds?: number }
  const response = HttpServerResponse.unsafeJson(body, { status: statusOf(error) })
  return error instanceof OutsideCallingHours ||
    error instanceof TooManyRequests ||
    (error instanceof ServiceUnavailable && error.retryAfterSeconds !== null)
    ? HttpServerResponse.setHeader(response, "retry-after", String(error.retryAfterSeconds))
    : response
}

/** A request target without its query string or fragment, fit for a log line. */
const pathOf = (url: string): string => url.replace(/[?#].*$/s, "")

const isMalformedBody = (u: unknown): boolean =>
  HttpServerError.isServerError(u) && u._tag === "RequestError" && u.reason === "Decode"

/**
 * The API's one response shaping middleware: the request goes on as an `EdgeRequest` (the body's media
 * type and size checked as it is read); every response gets `X-Request-Id`; API errors (also those the
 * edge raises as defects: 413, 415, 422) become their documented JSON; decode failures become FastAPI's 422 listing every failing field; malformed JSON is a
 * 422 at `["body"]`; unknown routes are a JSON 404; anything else is logged with the request id and
 * answered 500 without internals.
 */
export const make = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => {
  const resolveValidation = ValidationErrors.makeResolver(api)
  const atEdge = EdgeRequest.make(api)
  const shape = (app: HttpApp.Default) =>
    Effect.withFiberRuntime<
      HttpServerResponse.HttpServerResponse,
      never,
      HttpServerRequest.HttpServerRequest
    >((fiber) => {
      // Every part of the app (and this middleware) reads the body through the edge: read once, after
      // authentication, within its operation's media types and byte limit.
      const request = atEdge(Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest))
      const requestId = requestIdOf(request)
      const internalError = (cause: Cause.Cause<unknown>) =>
        Effect.logError("Unhandled error", cause).pipe(
          // the path only: a query string may carry a download link's signature or other secrets
          Effect.annotateLogs({ request_id: requestId, method: request.method, path: pathOf(request.url) }),
          Effect.as(
            HttpServerResponse.unsafeJson(
              { detail: "Internal server error", request_id: requestId },
              { status: 500 }
            )
          )
        )
      const setId = (response: HttpServerResponse.HttpServerResponse) =>
        HttpServerResponse.setHeader(response, "x-request-id", requestId)
      const refused = StorableText.checkUrl(request)
      if (refused) return Effect.succeed(setId(render(refused)))
      return app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.catchAllCause((cause) => {
          if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
          const failure = Cause.failureOption(cause)
          const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
          if (error instanceof HttpApiDecodeError) {
            return resolveValidation(request, error).pipe(
              Effect.map((validation) => (validation === undefined ? undefined : render(validation))),
              // reading the body to list its issues may cross its limit: that 413 is the answer
              Effect.catchAllDefect((defect) =>
                isApiError(defect) ? Effect.succeed(render(defect)) : Effect.die(defect)
              ),
              Effect.flatMap((response) =>
                response === undefined ? internalError(cause) : Effect.succeed(response)
              )
            )
          }
          if (isApiError(error)) return Effect.succeed(render(error))
          if (isMalformedBody(error)) {
            return Effect.succeed(render(ValidationErrors.malformedJson("the body is not valid JSON")))
          }
          if (HttpServerError.isServerError(error) && error._tag === "RouteNotFound") {
            return Effect.succeed(render(new NotFound({ detail: "Not Found" })))
          }
          return internalError(cause)
        }),
        Effect.map(setId)
      )
    })
  return shape
}

/** The response shaping as an API middleware of its own (`AppLayer` composes it with the others instead). */
export const layer = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => HttpApiBuilder.middleware(api, make(api) as never)
