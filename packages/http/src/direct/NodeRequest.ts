import type { Headers, Socket } from "@effect/platform"
import {
  Cookies,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  Multipart,
  UrlParams
} from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { maxJsonBytes } from "@voice-agent-platform/contract/middleware/BodyLimits.js"
import { Effect, Inspectable, Option, Stream } from "effect"
import type * as Http from "node:http"
import * as BodyStream from "../edge/BodyStream.js"

/**
 * Whether a Node request carries no body: no `Content-Length` above 0 and no `Transfer-Encoding`. A `GET`
 * or `HEAD` takes the direct routes (`DirectRoutes`) only without one; a `GET` with a body goes the
 * platform's way.
 */
export const isBodiless = (message: Http.IncomingMessage): boolean => {
  const headers = message.headers
  if (headers["transfer-encoding"] !== undefined) return false
  const length = headers["content-length"]
  return length === undefined || length === "0"
}

/**
 * A Node request as the platform's `HttpServerRequest`: what the direct routes give their handlers in
 * place of the platform's own request (whose class it does not export). The API reads a body through the
 * edge (`EdgeRequest`, which the response shaping puts in its place: each operation's media types and
 * byte limit, read from the Node message directly); this request's own body accessors are there for
 * anything else, read once and capped at the largest JSON body (`BodyLimits.maxJsonBytes`). It cannot
 * be upgraded (Node hands upgrades to its `upgrade` event, never here), nor read as multipart (the
 * operations that take one keep the platform's path).
 */
export class NodeRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private cachedCookies: Record<string, string> | undefined

  constructor(
    readonly source: Http.IncomingMessage,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string,
    private readonly body: { bytes?: Effect.Effect<Uint8Array, HttpServerError.RequestError> } = {}
  ) {
    super()
  }

  get originalUrl(): string {
    return this.source.url ?? "/"
  }
  get method(): HttpMethod {
    return (this.source.method ?? "GET").toUpperCase() as HttpMethod
  }
  get headers(): Headers.Headers {
    return this.headersOverride ?? (this.source.headers as Headers.Headers)
  }
  get cookies(): Record<string, string> {
    this.cachedCookies ??= Cookies.parseHeader(this.headers.cookie ?? "")
    return this.cachedCookies
  }
  get remoteAddress(): Option.Option<string> {
    return Option.fromNullable(this.remoteAddressOverride ?? this.source.socket?.remoteAddress)
  }

  modify(options: {
    readonly url?: string
    readonly headers?: Headers.Headers
    readonly remoteAddress?: string
  }): HttpServerRequest.HttpServerRequest {
    // a copy reads the same body, once
    return new NodeRequest(
      this.source,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride,
      this.body
    )
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return isBodiless(this.source) ? Stream.empty : BodyStream.capped(this, maxJsonBytes)
  }
  /** The whole body, read once: every later read answers the same bytes (or the same failure). */
  private get bytes(): Effect.Effect<Uint8Array, HttpServerError.RequestError> {
    this.body.bytes ??= isBodiless(this.source)
      ? Effect.succeed(new Uint8Array())
      : Effect.runSync(Effect.cached(BodyStream.collect(this, maxJsonBytes)))
    return this.body.bytes
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => bytes.slice().buffer)
  }
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.map(this.bytes, (bytes) => new TextDecoder().decode(bytes))
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        // what the platform's request answers for an empty body: it is not JSON
        try: () => JSON.parse(text) as unknown,
        catch: (cause) => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
      })
    )
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }
  get multipart(): Effect.Effect<Multipart.Persisted, Multipart.MultipartError> {
    return Effect.fail(
      new Multipart.MultipartError({ reason: "Parse", cause: "multipart bodies take the platform's path" })
    )
  }
  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.fail(
      new Multipart.MultipartError({ reason: "Parse", cause: "multipart bodies take the platform's path" })
    )
  }
  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return Effect.fail(
      new HttpServerError.RequestError({
        request: this,
        reason: "Decode",
        description: "not an upgrade request"
      })
    )
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, {
      _id: "@effect/platform/HttpServerRequest",
      method: this.method,
      url: this.originalUrl
    })
  }
}
