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
import { Effect, Inspectable, Option, Stream } from "effect"
import type * as Http from "node:http"

/**
 * Whether a Node request carries no body: no `Content-Length` above 0 and no `Transfer-Encoding`. Only
 * such requests take the direct routes (`DirectRoutes`); a `GET` with a body goes the platform's way.
 */
export const isBodiless = (message: Http.IncomingMessage): boolean => {
  const headers = message.headers
  if (headers["transfer-encoding"] !== undefined) return false
  const length = headers["content-length"]
  return length === undefined || length === "0"
}

/**
 * A Node request without a body as the platform's `HttpServerRequest`: what the direct routes give their
 * handlers in place of the platform's own request (whose class it does not export). Its body is empty, as
 * `isBodiless` checked; it cannot be upgraded (Node hands upgrades to its `upgrade` event, never here).
 */
export class BodilessRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private cachedCookies: Record<string, string> | undefined

  constructor(
    readonly source: Http.IncomingMessage,
    readonly url: string = source.url ?? "/",
    private readonly headersOverride?: Headers.Headers,
    private readonly remoteAddressOverride?: string
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
    return new BodilessRequest(
      this.source,
      options.url ?? this.url,
      options.headers ?? this.headersOverride,
      options.remoteAddress ?? this.remoteAddressOverride
    )
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return Stream.empty
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.succeed(new ArrayBuffer(0))
  }
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return Effect.succeed("")
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    // what the platform's request answers for an empty body: it is not JSON
    return Effect.fail(
      new HttpServerError.RequestError({ request: this, reason: "Decode", description: "the body is empty" })
    )
  }
  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.succeed(UrlParams.empty)
  }
  get multipart(): Effect.Effect<Multipart.Persisted, Multipart.MultipartError> {
    return Effect.fail(new Multipart.MultipartError({ reason: "Parse", cause: "the request has no body" }))
  }
  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return Stream.fail(new Multipart.MultipartError({ reason: "Parse", cause: "the request has no body" }))
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
