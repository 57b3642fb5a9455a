import type { HttpApi, HttpApiGroup, HttpApp } from "@effect/platform"
import { HttpApiBuilder, HttpMiddleware, HttpServerRequest, HttpTraceContext } from "@effect/platform"
import type { HttpServerResponse } from "@effect/platform"
import type { Tracer } from "effect"
import { Cause, Context, Effect, Exit, FiberRef, identity, Layer, Option } from "effect"
import * as EndpointRouter from "../edge/EndpointRouter.js"
import * as ErrorResponses from "../middleware/ErrorResponses.js"
import { AccessLog } from "./AccessLog.js"
import * as HttpMetrics from "./HttpMetrics.js"

/** What is learnt about a request while it runs and reported when it is answered. */
export interface RequestFacts {
  organizationId: number | undefined
}

/**
 * The facts of the requests being observed, by the request's source (Node's message, or the web
 * `Request`): every view of one request (the edge's, a modified one) shares it. A side table instead of
 * a service provided per request, which would copy the whole service context for every request.
 */
const factsBySource = new WeakMap<object, RequestFacts>()

const sourceOf = (request: HttpServerRequest.HttpServerRequest): object | undefined => {
  const source = request.source
  return typeof source === "object" && source !== null ? source : undefined
}

/** Records the organization a request's API key belongs to (for its access log line and span). */
export const noteOrganization = (organizationId: number): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => {
    const request = Context.getOption(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const source = Option.isSome(request) ? sourceOf(request.value) : undefined
    const facts = source === undefined ? undefined : factsBySource.get(source)
    if (facts !== undefined) facts.organizationId = organizationId
    return Effect.void
  })

/** The status a request that ended without a response is counted with: interrupted 499, else 500. */
const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>): number =>
  Exit.isSuccess(exit) ? exit.value.status : Cause.isInterruptedOnly(exit.cause) ? 499 : 500

/**
 * Wraps one app in the observation `layer` describes: `routeOf` names a request's route. The report is
 * written in `onExit`, which runs uninterruptibly: a request the client abandons (the platform then
 * interrupts its handler) is still logged, counted and its span closed, with status 499.
 */
export const observe =
  (routeOf: (method: string, url: string) => string, log: AccessLog["Type"]) => (app: HttpApp.Default) =>
    Effect.withFiberRuntime<
      HttpServerResponse.HttpServerResponse,
      unknown,
      HttpServerRequest.HttpServerRequest
    >((fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const started = performance.now()
      const method = request.method
      const route = routeOf(method, request.url)
      const facts: RequestFacts = { organizationId: undefined }
      const source = sourceOf(request)
      if (source !== undefined) factsBySource.set(source, facts)
      const handled = app
      const finish = (
        exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>,
        span: Tracer.Span | undefined
      ) => {
        if (source !== undefined) factsBySource.delete(source)
        const status = statusOf(exit)
        // an abandoned request has no response: its id is the caller's, if it gave one
        const requestId = Exit.isSuccess(exit)
          ? exit.value.headers["x-request-id"]
          : ErrorResponses.givenRequestId(request)
        const millis = performance.now() - started
        HttpMetrics.record(route, method, status, millis / 1000)
        if (span !== undefined) {
          // the platform's router sets `http.route` (as `:param`) on the current span: the template wins
          span.attribute("http.route", route)
          span.attribute("http.response.status_code", status)
          if (requestId !== undefined) span.attribute("request_id", requestId)
          if (facts.organizationId !== undefined) span.attribute("organization_id", facts.organizationId)
        }
        return log({
          request_id: requestId,
          method,
          route,
          status,
          duration_ms: Math.round(millis * 100) / 100,
          organization_id: facts.organizationId
        })
      }
      if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) {
        // `onExit` runs uninterruptibly, also when the platform interrupts an abandoned request (499)
        return Effect.onExit(handled, (exit) => finish(exit, undefined))
      }
      return Effect.useSpan(
        `${method} ${route}`,
        {
          kind: "server",
          parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
          captureStackTrace: false,
          attributes: {
            "http.request.method": method,
            "http.route": route,
            "url.path": request.url.replace(/[?#].*$/s, "")
          }
        },
        (span) => Effect.onExit(Effect.withParentSpan(handled, span), (exit) => finish(exit, span))
      )
    })

/**
 * Observes every request the API answers, from outside the response shaping (so it sees the final
 * status and `X-Request-Id`):
 *
 * - a server span `METHOD /route/{template}` (when a tracer is on), child of a caller's `traceparent`,
 *   with `http.route`, `url.path`, `request_id`, the status, and the organization once authenticated;
 *   the platform's own server span is turned off, because it records the query string (a download
 *   link's signature) as `url.full` and `url.query`;
 * - `vap_http_requests_total` and `vap_http_request_duration_seconds` by route template (`HttpMetrics`);
 * - one access log line (`AccessLog`): request id, method, route, status, duration, organization.
 *
 * A request no operation matches is recorded under the route `unmatched` (or its path, for the
 * `extraRoutes` served beside the API: the docs, `/metrics`; or the route ending in `*` whose prefix it
 * starts with: `/console/*`), never its raw path.
 */
export const layer = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R, RI = never>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  extraRoutes: ReadonlyArray<string>,
  inner: Effect.Effect<(app: HttpApp.Default) => HttpApp.Default, never, RI> = Effect.succeed(identity)
) => {
  const match = EndpointRouter.make(api)
  const extra = new Set(extraRoutes.filter((route) => !route.endsWith("*")))
  // `/console/*`: every path under `/console/`, named by the longest such route that holds it
  const prefixes = extraRoutes
    .filter((route) => route.endsWith("*"))
    .map((route) => ({ route, prefix: route.slice(0, -1) }))
    .sort((a, b) => b.prefix.length - a.prefix.length)
  const extraRouteOf = (path: string): string | undefined =>
    extra.has(path) ? path : prefixes.find(({ prefix }) => path.startsWith(prefix))?.route
  // the platform writes parameters `:agent_id`; the route is shown as the OpenAPI document does, `{agent_id}`
  const templates = new Map<string, string>()
  const templateOf = (path: string): string => {
    let template = templates.get(path)
    if (template === undefined) {
      template = path.replace(/:(\w+)/g, "{$1}")
      templates.set(path, template)
    }
    return template
  }
  /** Whether the API answers this request itself (an operation, or one of the `extraRoutes`). */
  const servedHere = (method: string, url: string): boolean =>
    match(method, url) !== undefined || extraRouteOf(url.replace(/[?#].*$/s, "")) !== undefined
  const routeOf = (method: string, url: string): string => {
    const found = match(method, url)
    if (found !== undefined) return templateOf(found.endpoint.path)
    return extraRouteOf(url.replace(/[?#].*$/s, "")) ?? "unmatched"
  }

  return Layer.merge(
    // One registration for the observation and the middlewares it wraps (`inner`), so that it observes
    // what they answer. Registered without `withContext`, the platform merges no context into the
    // request's for it (it would, on every request, with `withContext: true`).
    HttpApiBuilder.middleware(
      api,
      Effect.zipWith(AccessLog, inner, (log, wrapped) => {
        const observed = observe(routeOf, log)
        return (app: HttpApp.Default) => observed(wrapped(app))
      }) as never
    ),
    // The platform's server span records the query string (a download link's signature): this one replaces
    // it for the API's own requests; any other (an embedder's routes on the same server) keeps it.
    Layer.scopedDiscard(
      Effect.locallyScopedWith(
        HttpMiddleware.currentTracerDisabledWhen,
        (previous) => (request) => previous(request) || servedHere(request.method, request.url)
      )
    )
  )
}
