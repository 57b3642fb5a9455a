import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Config, Context, Duration, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as Http from "node:http"
import type * as Net from "node:net"
import type { Duplex } from "node:stream"
import * as DirectRoutes from "../direct/DirectRoutes.js"
import * as RequestServices from "./RequestServices.js"

/**
 * How long a client may take, and how much header it may send, on the Node HTTP server. Node's own
 * defaults let a slow body drip hold a connection for five minutes and check its deadlines only every 30 s.
 */
export interface Limits {
  /** The whole header block of a request must arrive within this (Node's `headersTimeout`). */
  readonly headersTimeout: Duration.DurationInput
  /** The whole request, headers and body, must arrive within this (Node's `requestTimeout`). */
  readonly requestBodyTimeout: Duration.DurationInput
  /** A kept-alive connection with no request in flight is closed after this (Node's `keepAliveTimeout`). */
  readonly keepAliveTimeout: Duration.DurationInput
  /** The largest header block accepted, in bytes; a larger one is answered 431 (Node's `maxHeaderSize`). */
  readonly maxHeaderBytes: number
  /**
   * On shutdown: how long requests in flight may take to finish once the server stops accepting
   * connections; then every connection still open is closed.
   */
  readonly shutdownDeadline: Duration.DurationInput
}

/** The limits used when none are given. */
export const defaultLimits: Limits = {
  headersTimeout: Duration.seconds(10),
  requestBodyTimeout: Duration.seconds(60),
  keepAliveTimeout: Duration.seconds(5),
  maxHeaderBytes: 16 * 1024,
  shutdownDeadline: Duration.seconds(10)
}

/** A number of seconds (fractions allowed) from the environment, more than 0. */
const secondsConfig = (name: string, fallback: Duration.DurationInput) =>
  Config.number(name).pipe(
    Config.validate({
      message: `${name} must be a number of seconds, more than 0`,
      validation: (n) => Number.isFinite(n) && n > 0
    }),
    Config.map(Duration.seconds),
    Config.withDefault(Duration.decode(fallback))
  )

/**
 * The limits from the environment: `HEADERS_TIMEOUT_SECONDS` (10), `REQUEST_BODY_TIMEOUT_SECONDS` (60,
 * at least the header timeout), `KEEP_ALIVE_TIMEOUT_SECONDS` (5), `MAX_HEADER_BYTES` (16384) and
 * `SHUTDOWN_DEADLINE_SECONDS` (10).
 */
export const limitsConfig: Config.Config<Limits> = Config.all({
  headersTimeout: secondsConfig("HEADERS_TIMEOUT_SECONDS", defaultLimits.headersTimeout),
  requestBodyTimeout: secondsConfig("REQUEST_BODY_TIMEOUT_SECONDS", defaultLimits.requestBodyTimeout),
  keepAliveTimeout: secondsConfig("KEEP_ALIVE_TIMEOUT_SECONDS", defaultLimits.keepAliveTimeout),
  maxHeaderBytes: Config.integer("MAX_HEADER_BYTES").pipe(
    Config.validate({
      message: "MAX_HEADER_BYTES must be between 1024 and 1048576",
      validation: (n) => n >= 1024 && n <= 1024 * 1024
    }),
    Config.withDefault(defaultLimits.maxHeaderBytes)
  ),
  shutdownDeadline: secondsConfig("SHUTDOWN_DEADLINE_SECONDS", defaultLimits.shutdownDeadline)
}).pipe(
  Config.validate({
    message:
      "REQUEST_BODY_TIMEOUT_SECONDS must be at least HEADERS_TIMEOUT_SECONDS (the request includes its headers)",
    validation: (limits) =>
      Duration.toMillis(limits.requestBodyTimeout) >= Duration.toMillis(limits.headersTimeout)
  })
)

const millis = (duration: Duration.DurationInput) => Math.max(1, Math.ceil(Duration.toMillis(duration)))

/** "1.5 s": a duration as messages say it. */
const spoken = (duration: Duration.DurationInput) => `${millis(duration) / 1000} s`

/**
 * The `http.createServer` options that apply the limits. Node checks the header and request deadlines on
 * a timer; it runs often enough here that a deadline strikes at most a fraction of itself late.
 */
export const serverOptions = (limits: Limits = defaultLimits): Http.ServerOptions => {
  const headersTimeout = millis(limits.headersTimeout)
  // Node refuses a header deadline longer than the request's: the request deadline covers the headers too.
  const requestTimeout = Math.max(headersTimeout, millis(limits.requestBodyTimeout))
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: millis(limits.keepAliveTimeout),
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4)))
  }
}

/** What a client error is answered: a status and a `detail` that says what to do differently. */
export const clientErrorAnswer = (
  code: string | undefined,
  headersArrived: boolean,
  limits: Limits = defaultLimits
): { readonly status: number; readonly detail: string } => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        detail: `The request's headers are larger than ${limits.maxHeaderBytes} bytes in all`
      }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, detail: "The request's chunk extensions are too large" }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        detail: headersArrived
          ? `The request did not arrive in time: its headers and body must arrive within ${spoken(limits.requestBodyTimeout)}`
          : `The request's headers did not arrive in time: they must arrive within ${spoken(limits.headersTimeout)}`
      }
    default:
      return { status: 400, detail: `The request is not valid HTTP/1.1 (${code ?? "unreadable"})` }
  }
}

/**
 * A `clientError` listener answering Node's client errors with the API's JSON `{detail}` (431 for headers
 * over the limit, 408 for a request that did not arrive in time, 400 for malformed HTTP) instead of Node's
 * bare status line, then closing the connection.
 */
export const answerClientErrors =
  (limits: Limits = defaultLimits) =>
  (error: Error & { readonly code?: string }, socket: Duplex): void => {
    // The response in progress on this connection, if its request's headers arrived (Node's own field).
    const inFlight = (socket as Duplex & { _httpMessage?: Http.ServerResponse | null })._httpMessage
    if (error.code === "ECONNRESET" || !socket.writable || (inFlight != null && inFlight.headersSent)) {
      socket.destroy()
      return
    }
    const { detail, status } = clientErrorAnswer(error.code, inFlight != null, limits)
    const body = JSON.stringify({ detail })
    socket.end(
      `HTTP/1.1 ${status} ${Http.STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\n` +
        "Connection: close\r\n\r\n" +
        body
    )
    // The answer is flushed first; a client still sending must not keep the half-closed socket open.
    setTimeout(() => socket.destroy(), 1000).unref()
  }

/** The Node server with the limits applied and client errors answered in JSON. */
export const createServer = (limits: Limits = defaultLimits): Http.Server => {
  const server = Http.createServer(serverOptions(limits))
  server.on("clientError", answerClientErrors(limits))
  return server
}

/**
 * Stops a Node server: no new connections, idle ones closed at once, requests in flight given until the
 * deadline to finish (their connections closed as soon as they are idle), then every connection still
 * open closed (slow bodies, hung requests, downloads in progress). Resolves once the server is closed.
 */
export const shutDown = (server: Http.Server, deadline: Duration.DurationInput): Promise<void> =>
  new Promise((resolve) => {
    if (!server.listening) return resolve()
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100)
    const hardStop = setTimeout(() => server.closeAllConnections(), millis(deadline))
    server.close(() => {
      clearInterval(idleSweep)
      clearTimeout(hardStop)
      resolve()
    })
  })

/** How the server runs the apps served on it. */
export interface Options {
  /**
   * Whether a request's fiber starts with the platform's services only (`RequestServices.tags`: the HTTP
   * platform, file system, path, ETag generator and the server) instead of the whole context the server
   * layer was built in. Off by default: an app served with `HttpServer.serve` then reads any service
   * provided to the server layer, and the platform's settings provided there (`MaxBodySize`, multipart
   * limits, `SpanNameGenerator`) apply. The bundled server turns it on: its handler groups and middleware
   * carry their own services, and the platform copies a request's context several times.
   */
  readonly narrowRequestContext?: boolean
  /**
   * Whether the API's operations take the engine's direct path (`DirectRoutes`, provided by `AppLayer`):
   * a request for one of them (but an upload, the file download, the chat message, the campaign report or
   * a `GET` with a body) runs without the platform's per-request steps, inside the same API middlewares. It applies only with `narrowRequestContext` and
   * when `serve` is given no middleware of its own: the direct path skips `serve`'s middleware and any
   * API middleware registered besides the engine's. Off by default; the bundled server turns it on.
   */
  readonly directRoutes?: boolean
}

/**
 * The Node server itself, for what the HTTP app does not handle: the carrier's media sockets are
 * WebSocket upgrades (`MediaSockets`), taken on its `upgrade` event.
 */
export class NodeServer extends Context.Tag("@voice-agent-platform/http/NodeServer")<
  NodeServer,
  Http.Server
>() {}

/** When the server takes connections: once the app is served (the bundled server), or once built (tests). */
type ListenWhen = "served" | "built"

const addressOf = (server: Http.Server, fallback: Net.ListenOptions): HttpServer.Address => {
  const address = server.address()
  if (typeof address === "string") return { _tag: "UnixAddress", path: address }
  if (address === null) {
    return { _tag: "TcpAddress", hostname: fallback.host ?? "0.0.0.0", port: fallback.port ?? 0 }
  }
  return {
    _tag: "TcpAddress",
    hostname: address.address === "::" ? "0.0.0.0" : address.address,
    port: address.port
  }
}

const make = (listen: Net.ListenOptions, limits: Limits, when: ListenWhen, options: Options) =>
  Effect.gen(function* () {
    const server = createServer(limits)
    const stop = Effect.promise(() => shutDown(server, limits.shutdownDeadline))
    yield* Effect.addFinalizer(() => stop)
    const startListening = yield* Effect.cached(
      Effect.async<void, Error>((resume) => {
        const onError = (cause: Error) =>
          resume(
            Effect.fail(
              new Error(`Cannot listen on ${listen.host ?? ""}:${listen.port ?? 0}: ${cause.message}`)
            )
          )
        server.once("error", onError)
        server.listen(listen, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      })
    )
    if (when === "built") yield* Effect.orDie(startListening)
    const httpServer = HttpServer.make({
      address: addressOf(server, listen),
      serve: (httpApp, middleware) =>
        Effect.gen(function* () {
          // With `narrowRequestContext`, each request's fiber starts with the platform's services only
          // (`RequestServices`), not the whole engine's: the platform copies that context several times per
          // request. Without it, with the whole context the server was built in.
          const makeHandler = NodeHttpServer.makeHandler(httpApp, middleware!)
          const handler = yield* options.narrowRequestContext === true
            ? makeHandler.pipe(
                Effect.mapInputContext(
                  (context: Context.Context<never>) => RequestServices.narrow(context) as Context.Context<any>
                )
              )
            : makeHandler
          // the engine's own path for the API's operations, when the app served is the engine's API
          const direct =
            options.directRoutes === true && options.narrowRequestContext === true && middleware === undefined
              ? yield* Effect.serviceOption(DirectRoutes.DirectRoutes)
              : Option.none()
          const listener = Option.isSome(direct)
            ? yield* direct.value.listener.pipe(
                Effect.mapInputContext(
                  (context: Context.Context<never>) =>
                    RequestServices.narrow(context) as Context.Context<never>
                )
              )
            : undefined
          const onRequest = listener === undefined ? handler : DirectRoutes.before(listener, handler)
          // Finalizers run last first: the server drains (answering requests on open connections) before
          // the handler goes.
          yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", onRequest)))
          yield* Effect.addFinalizer(() => stop)
          server.on("request", onRequest)
          // Only now, with a handler in place, may connections be accepted: none can wait for an app that is not there.
          if (when === "served") yield* Effect.orDie(startListening)
        })
    })
    // The address is known once the server listens; before, it is the one asked for.
    Object.defineProperty(httpServer, "address", { get: () => addressOf(server, listen), enumerable: true })
    return Context.make(HttpServer.HttpServer, httpServer).pipe(Context.add(NodeServer, server))
  })

/**
 * The API's Node HTTP server with the limits: it listens only once the app is served, so a connection made
 * while the server starts is refused (never left waiting for an app that is not there yet), and on
 * shutdown it closes every connection left after the deadline. A request's fiber holds the whole context
 * the server layer was built in, unless `options.narrowRequestContext` (only the platform's services).
 */
export const layer = (listen: Net.ListenOptions, limits: Limits = defaultLimits, options: Options = {}) =>
  Layer.mergeAll(Layer.scopedContext(make(listen, limits, "served", options)), NodeHttpServer.layerContext)

/**
 * For tests: the same server on a random loopback port, listening at once, with an `HttpClient` that
 * sends every request to it (as `NodeHttpServer.layerTest` does for Node's default server).
 */
export const layerTest = (limits: Limits = defaultLimits, options: Options = {}) =>
  HttpServer.layerTestClient.pipe(
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.scopedContext(make({ port: 0, host: "127.0.0.1" }, limits, "built", options)),
        NodeHttpServer.layerContext
      )
    )
  )
