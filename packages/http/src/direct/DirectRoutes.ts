import type { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiSchema,
  HttpApp,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type { SchemaAST } from "effect"
import {
  Cause,
  Context,
  Effect,
  Either,
  Exit,
  FiberRef,
  HashSet,
  Layer,
  Option,
  Redacted,
  Runtime,
  Schema,
  Scope
} from "effect"
import type * as Http from "node:http"
import * as EndpointRouter from "../edge/EndpointRouter.js"
import * as CapturedGroups from "./CapturedGroups.js"
import * as DirectPayload from "./DirectPayload.js"
import { isBodiless, NodeRequest } from "./NodeRequest.js"
import * as NodeResponseWriter from "./NodeResponseWriter.js"

/** Node's `request` listener for what the direct routes answer: `true` when it took the request. */
export type Listener = (request: Http.IncomingMessage, response: Http.ServerResponse) => boolean

/**
 * The engine's own request path for the API's operations, beside the platform's: a request for an
 * operation whose handler answers JSON (or nothing) and whose payload is not multipart (a `GET` or `HEAD`
 * only without a body) is matched once and runs its security middleware, its decoding, its handler and
 * its encoding in one fiber, wrapped in the same API middlewares as on the platform's path (observation,
 * response shaping, deadline); everything else goes the platform's way. The server asks for `listener`
 * once it serves the API (`HardenedNodeServer`).
 */
export class DirectRoutes extends Context.Tag("@voice-agent-platform/http/DirectRoutes")<
  DirectRoutes,
  { readonly listener: Effect.Effect<Listener> }
>() {}

/** How the API middlewares wrap one operation's app, given its route template. */
export type Wrapping = (
  route: string
) => (app: HttpApp.Default) => HttpApp.Default<unknown, HttpServerRequest.HttpServerRequest>

type MiddlewareEntry = { readonly tag: HttpApiMiddleware.TagClassAny; readonly effect: any }

/** A request's match, by its Node message, for the operation's app (which reads it from there). */
const matches = new WeakMap<object, EndpointRouter.EndpointMatch>()

/** The middlewares of `tags`, implemented by the services in `context`, after those already in `into`. */
const middlewareOf = (
  tags: ReadonlySet<HttpApiMiddleware.TagClassAny>,
  context: Context.Context<never>,
  into: Map<string, MiddlewareEntry>
) => {
  for (const tag of tags) into.set(tag.key, { tag, effect: Context.unsafeGet(context, tag as never) })
  return into
}

/** The credential a security scheme reads: headers directly, anything else as the platform decodes it. */
const credentialOf = (security: HttpApiSecurity.HttpApiSecurity): Effect.Effect<any, never, any> => {
  if (security._tag === "ApiKey" && security.in === "header") {
    const header = security.key.toLowerCase()
    return Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      Redacted.make(request.headers[header] ?? "")
    )
  }
  return HttpApiBuilder.securityDecode(security)
}

/** A security middleware: each scheme in turn until one admits the request (the platform's order). */
const securityMiddleware = (entry: MiddlewareEntry): Effect.Effect<any, any, any> => {
  let effect: Effect.Effect<any, any, any> | undefined
  for (const [key, security] of Object.entries(
    (entry.tag as HttpApiMiddleware.TagClassSecurityAny).security
  )) {
    const step = Effect.flatMap(credentialOf(security), entry.effect[key])
    effect = effect === undefined ? step : Effect.catchAll(effect, () => step)
  }
  return effect ?? Effect.void
}

/** The middlewares around a handler, as the platform applies them (the last registered outermost). */
const applyMiddleware = (middleware: Map<string, MiddlewareEntry>, handler: Effect.Effect<any, any, any>) => {
  for (const entry of middleware.values()) {
    const isSecurity = "security" in entry.tag && (entry.tag as any).security !== undefined
    const effect = isSecurity ? securityMiddleware(entry) : entry.effect
    const previous = handler
    if (entry.tag.optional) {
      handler = Effect.matchEffect(effect, {
        onFailure: () => previous,
        onSuccess: (value) =>
          entry.tag.provides !== undefined
            ? Effect.provideService(previous, entry.tag.provides, value)
            : previous
      })
    } else {
      handler =
        entry.tag.provides !== undefined
          ? Effect.provideServiceEffect(previous, entry.tag.provides, effect)
          : Effect.zipRight(effect, previous)
    }
  }
  return handler
}

/** A decoder from a schema (its failure becomes the platform's decode error: the API's 422). */
const decoderOf = (schema: Schema.Schema.Any) =>
  Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)

/**
 * The query as the platform hands it to an operation's schema: a parameter the schema takes as a list is
 * a list even when given once. The platform's own function, exported by its module but left out of its
 * typings (the version is pinned; the direct routes' tests fail if it goes).
 */
const normalizeUrlParams = (
  HttpApiBuilder as unknown as {
    readonly normalizeUrlParams: (
      params: Readonly<Record<string, string | Array<string>>>,
      ast: SchemaAST.AST
    ) => Readonly<Record<string, string | Array<string>>>
  }
).normalizeUrlParams

/** How a handler's value becomes its response: one JSON (or empty) success, else none (the platform answers). */
const encoderOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) => {
  const schemas = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(schemas, endpoint.successSchema)
  const [schema] = schemas
  if (schemas.size !== 1 || schema === undefined) return undefined
  const status = HttpApiSchema.getStatusSuccess(schema)
  if (HttpApiSchema.isVoid(schema.ast)) return () => Effect.succeed(HttpServerResponse.empty({ status }))
  const encoding = HttpApiSchema.getEncoding(schema.ast)
  if (encoding.kind !== "Json") return undefined
  const encode = Schema.encodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)
  return (value: unknown) =>
    Either.match(encode(value), {
      // a handler's answer outside its schema is the engine's fault: a 500, logged
      onLeft: (error) => Effect.die(error),
      onRight: (encoded) =>
        Effect.try(() =>
          HttpServerResponse.unsafeJson(encoded, { status, contentType: encoding.contentType })
        )
    })
}

/** The app of one operation answered directly, or undefined when the platform's path must answer it. */
const routeApp = (
  item: HttpApiBuilder.Handlers.Item<any, any>,
  middleware: Map<string, MiddlewareEntry>
): HttpApp.Default | undefined => {
  const endpoint = item.endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  if (item.withFullRequest) return undefined
  const payload = DirectPayload.readerOf(endpoint)
  if (payload._tag === "Platform") return undefined
  const encode = encoderOf(endpoint)
  if (encode === undefined) return undefined
  const decodePath = Option.getOrUndefined(Option.map(endpoint.pathSchema, decoderOf))
  const decodeHeaders = Option.getOrUndefined(Option.map(endpoint.headersSchema, decoderOf))
  const urlParamsSchema = Option.getOrUndefined(endpoint.urlParamsSchema)
  const decodeUrlParams = urlParamsSchema === undefined ? undefined : decoderOf(urlParamsSchema)
  const handler = item.handler as (input: any) => Effect.Effect<unknown, unknown, any>
  /** The rest of the platform's order after the payload: the headers, the query, the handler, the encoding. */
  const rest = (
    request: HttpServerRequest.HttpServerRequest,
    found: EndpointRouter.EndpointMatch,
    input: Record<string, unknown>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, any> => {
    if (decodeHeaders !== undefined) {
      const headers = decodeHeaders(request.headers)
      if (Either.isLeft(headers)) return HttpApiDecodeError.refailParseError(headers.left)
      input.headers = headers.right
    }
    if (decodeUrlParams !== undefined) {
      const urlParams = decodeUrlParams(normalizeUrlParams(found.searchParams, urlParamsSchema!.ast))
      if (Either.isLeft(urlParams)) return HttpApiDecodeError.refailParseError(urlParams.left)
      input.urlParams = urlParams.right
    }
    // the group's services are in the request's context from its start (`layer`)
    return Effect.flatMap(handler(input) as Effect.Effect<unknown, unknown>, (value) =>
      HttpServerResponse.isServerResponse(value) ? Effect.succeed(value) : encode(value)
    )
  }
  const handled = Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown, any>((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const found = matches.get(request.source as object)
    if (found === undefined) return Effect.die(new Error("a direct route ran without its match"))
    const input: Record<string, unknown> = { request }
    if (decodePath !== undefined) {
      const path = decodePath(found.params)
      if (Either.isLeft(path)) return HttpApiDecodeError.refailParseError(path.left)
      input.path = path.right
    }
    // the payload after the path and before the headers, as the platform decodes them
    if (payload._tag === "None") return rest(request, found, input)
    return Effect.flatMap(payload.read(request, found.searchParams), (decoded) => {
      input.payload = decoded
      return rest(request, found, input)
    })
  })
  // The request's fiber runs uninterruptibly (its answer is always shaped, observed and written); the
  // operation itself may be interrupted (the client going away, the deadline), unless its handler was
  // registered uninterruptible (the platform's route option).
  const guarded = applyMiddleware(middleware, handled) as HttpApp.Default
  return item.uninterruptible ? guarded : Effect.interruptible(guarded)
}

/** Node's `request` listener that gives the direct routes each request first, then `fallback` what they leave. */
export const before =
  (direct: Listener, fallback: (request: Http.IncomingMessage, response: Http.ServerResponse) => void) =>
  (request: Http.IncomingMessage, response: Http.ServerResponse): void => {
    if (!direct(request, response)) fallback(request, response)
  }

/**
 * A request whose answer failed past the API middlewares (which answer every failure they see): a pre-
 * response handler, the writing itself, an interruption not the client's. Answered as the platform's
 * server answers it (500, or 503 for the server's interruption, with a JSON `detail`) and logged; a response already started
 * is cut; a client gone needs nothing. Never a request left without an answer.
 */
const answerUnanswered = (method: string, nodeResponse: Http.ServerResponse, cause: Cause.Cause<unknown>) => {
  const clientGone =
    Cause.isInterruptedOnly(cause) &&
    HashSet.has(Cause.interruptors(cause), HttpServerError.clientAbortFiberId)
  if (clientGone) return Effect.void
  return Effect.logError("Unhandled error while answering a request", cause).pipe(
    Effect.zipRight(
      nodeResponse.headersSent
        ? Effect.sync(() => nodeResponse.destroy())
        : Effect.flatMap(HttpServerError.causeResponse(cause), ([{ status }]) =>
            // the API's error shape, as every other answer has it
            NodeResponseWriter.write(
              method,
              nodeResponse,
              HttpServerResponse.unsafeJson(
                { detail: status === 503 ? "The server stopped the request" : "Internal server error" },
                { status }
              )
            )
          )
    ),
    Effect.catchAllCause(() => Effect.sync(() => nodeResponse.destroy()))
  )
}

/**
 * The services the group was built with, without the group layer's own scope (it would keep a request's
 * finalizers until shutdown): a write gets a scope of its own per request, as the platform gives one; no
 * read asks for one, and a read's handler that did would fail at once (a 500 in the tests) rather than
 * leak.
 */
const withoutScope = (services: Map<string, unknown>) => {
  services.delete(Scope.Scope.key)
  return services
}

/**
 * The direct routes of `api`, wrapped by `wrapping` (the API middlewares, the same as on the platform's
 * path). Built after the API's handler groups (it needs `HttpApi.Api`), from the groups built with
 * `CapturedGroups.group`.
 */
export const layer = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R, RW>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  wrapping: Effect.Effect<Wrapping, never, RW>
) =>
  Layer.effect(
    DirectRoutes,
    Effect.gen(function* () {
      // the platform's router of this API instance: the key its groups were captured under
      const router = yield* HttpApiBuilder.Router
      const { context: apiContext } = yield* HttpApi.Api
      const wrap = yield* wrapping
      const match = EndpointRouter.make(api)
      const listener = Effect.map(Effect.runtime<never>(), (runtime): Listener => {
        const apps = new Map<
          HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
          { readonly app: ReturnType<ReturnType<Wrapping>>; readonly services: Map<string, unknown> }
        >()
        const apiMiddleware = (api as unknown as HttpApi.HttpApi.AnyWithProps).middlewares
        for (const { group, handlers, context } of CapturedGroups.of(router)) {
          const groupMiddleware = middlewareOf(group.middlewares, context, new Map())
          for (const item of handlers.handlers) {
            const endpoint = item.endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
            const middleware = middlewareOf(endpoint.middlewares, context, new Map(groupMiddleware))
            // the API's own middlewares wrap the rest, as they wrap the platform's router
            for (const tag of apiMiddleware) {
              if (!middleware.has(tag.key)) {
                middleware.set(tag.key, {
                  tag,
                  effect: Context.unsafeGet(apiContext as Context.Context<never>, tag as never)
                })
              }
            }
            const app = routeApp(item, middleware)
            if (app === undefined) continue
            apps.set(endpoint, {
              app: wrap(endpoint.path.replace(/:(\w+)/g, "{$1}"))(app),
              // what the platform gives a handler: its group's context under the request's (which wins)
              services: withoutScope(new Map([...context.unsafeMap, ...runtime.context.unsafeMap]))
            })
          }
        }
        if (apps.size === 0) return () => false
        // Node's request event must never throw: a request target the matcher cannot read is left to the
        // platform's path, which answers it inside Effect
        const matchOrLeave = (method: string, url: string) => {
          try {
            return match(method, url)
          } catch {
            return undefined
          }
        }
        const take: Listener = (nodeRequest, nodeResponse) => {
          const method = nodeRequest.method
          if (method === undefined) return false
          const reads = method === "GET" || method === "HEAD"
          // a read with a body is the platform's to answer
          if (reads && !isBodiless(nodeRequest)) return false
          const found = matchOrLeave(method, nodeRequest.url ?? "/")
          const route = found === undefined ? undefined : apps.get(found.endpoint)
          if (found === undefined || route === undefined) return false
          matches.set(nodeRequest, found)
          const request = new NodeRequest(nodeRequest)
          const services = new Map(route.services)
          services.set(HttpServerRequest.HttpServerRequest.key, request)
          services.set(HttpServerRequest.ParsedSearchParams.key, found.searchParams)
          // a scope of the request's own, as the platform gives one, for the operations that change
          // something (none of the reads asks for one), closed once the answer is written
          const scope = reads ? undefined : Effect.runSync(Scope.make())
          if (scope !== undefined) services.set(Scope.Scope.key, scope)
          // the fiber starts in the request's context (no context changed after it starts), uninterruptible
          // but for the operation (`routeApp`), which the deadline (`RequestDeadline.withinFiber`) or the
          // client going away interrupts: the answer is still shaped, observed and written
          const fiber = Runtime.runFork(
            Runtime.make({
              context: Context.unsafeMake<HttpServerRequest.HttpServerRequest>(services),
              fiberRefs: runtime.fiberRefs,
              runtimeFlags: runtime.runtimeFlags
            })
          )(
            Effect.uninterruptible(
              Effect.catchAllCause(
                Effect.flatMap(route.app, (response) =>
                  Effect.flatMap(FiberRef.get(HttpApp.currentPreResponseHandlers), (handlers) =>
                    // what the app added to the response before it is written (as the platform's server does)
                    Effect.flatMap(
                      handlers._tag === "None" ? Effect.succeed(response) : handlers.value(request, response),
                      (final) => NodeResponseWriter.write(method, nodeResponse, final)
                    )
                  )
                ),
                (cause) => answerUnanswered(method, nodeResponse, cause)
              ).pipe((answered) =>
                scope === undefined ? answered : Effect.ensuring(answered, Scope.close(scope, Exit.void))
              )
            )
          )
          nodeResponse.on("close", () => {
            // the client went away: the request is interrupted as the platform's server does it (a 499)
            if (!nodeResponse.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
          })
          return true
        }
        return take
      })
      return { listener }
    })
  ).pipe(
    // the router the API's groups are built with (the platform's groups provide it the same way: one
    // instance per layer memo map, so per server)
    Layer.provide(HttpApiBuilder.Router.Live)
  )
