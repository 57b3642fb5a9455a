import type { FileSystem, HttpApi, HttpApiEndpoint, HttpApiGroup, Path, Socket } from "@effect/platform"
import {
  Headers,
  HttpIncomingMessage,
  HttpServerError,
  HttpServerRequest,
  Multipart,
  UrlParams
} from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import type { Option, Scope } from "effect"
import { Effect, Inspectable, Stream } from "effect"
import { UnsupportedMediaType } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import * as BodyLimits from "@voice-agent-platform/contract/middleware/BodyLimits.js"
import * as BodyPolicy from "@voice-agent-platform/contract/edge/BodyPolicy.js"
import * as BodyStream from "./BodyStream.js"
import * as EndpointRouter from "./EndpointRouter.js"
import * as MediaType from "@voice-agent-platform/contract/edge/MediaType.js"
import * as MultipartBody from "./MultipartBody.js"

/** The longest media type quoted back in a 415. */
const maxQuotedLength = 100

/** What every copy of one request shares: its body is read once. */
class Body {
  private bytesEffect: Effect.Effect<Uint8Array, HttpServerError.RequestError> | undefined

  readonly policy: BodyPolicy.BodyPolicy

  constructor(
    readonly request: HttpServerRequest.HttpServerRequest,
    policy: BodyPolicy.BodyPolicy
  ) {
    // an operation that takes several kinds of body reads this request's by its Content-Type
    this.policy = BodyPolicy.select(policy, request.headers["content-type"])
  }

  /** The 415 of a media type the operation does not take, checked before anything is read. */
  get admitted(): Effect.Effect<void> {
    const contentType = this.request.headers["content-type"]
    if (BodyPolicy.accepts(this.policy, contentType)) return Effect.void
    const given = contentType === undefined ? "no Content-Type" : MediaType.essence(contentType)
    return Effect.die(
      new UnsupportedMediaType({
        detail: `This operation takes ${BodyPolicy.describe(this.policy)}, not ${given.slice(0, maxQuotedLength)}`
      })
    )
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    const policy = this.policy
    return policy._tag === "None"
      ? Stream.empty
      : Stream.unwrap(Effect.as(this.admitted, BodyStream.capped(this.request, BodyPolicy.maxBytes(policy))))
  }

  /** The whole body, read once: every later read answers the same bytes (or the same failure). */
  get bytes(): Effect.Effect<Uint8Array, HttpServerError.RequestError> {
    const policy = this.policy
    if (policy._tag === "None") return Effect.succeed(new Uint8Array())
    this.bytesEffect ??= Effect.runSync(
      Effect.cached(
        Effect.zipRight(this.admitted, BodyStream.collect(this.request, BodyPolicy.maxBytes(policy)))
      )
    )
    return this.bytesEffect
  }
}

/**
 * The request as the API sees it: the same request, whose body accessors take only what its operation
 * declares (`BodyPolicy`): a media type it does not take is a 415 and a body over its limit a 413, both
 * before (or, for the limit, while) the body is read, and both raised as defects carrying their API
 * error, as the platform's own body reads do, so no handler swallows them and the response middleware
 * renders them. Nothing is read until a handler asks, which is after authentication. A JSON body is also
 * refused (422) when it nests too deep or carries text no database can store.
 */
export class EdgeRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  private textEffect: Effect.Effect<string, HttpServerError.RequestError> | undefined

  constructor(
    readonly inner: HttpServerRequest.HttpServerRequest,
    private readonly body: Body
  ) {
    super()
  }

  get source(): unknown {
    return this.inner.source
  }
  get url(): string {
    return this.inner.url
  }
  get originalUrl(): string {
    return this.inner.originalUrl
  }
  get method(): HttpMethod {
    return this.inner.method
  }
  get cookies() {
    return this.inner.cookies
  }
  get remoteAddress(): Option.Option<string> {
    return this.inner.remoteAddress
  }
  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return this.inner.upgrade
  }

  /**
   * The headers; a JSON operation sees `application/<x>+json` as `application/json`, which is how the
   * platform knows to read it as JSON.
   */
  get headers(): Headers.Headers {
    const headers = this.inner.headers
    const contentType = headers["content-type"]
    return this.body.policy._tag === "Json" &&
      contentType !== undefined &&
      MediaType.essence(contentType) !== "application/json" &&
      BodyPolicy.accepts(this.body.policy, contentType)
      ? Headers.set(headers, "content-type", "application/json")
      : headers
  }

  modify(options: {
    readonly url?: string
    readonly headers?: Headers.Headers
    readonly remoteAddress?: string
  }): HttpServerRequest.HttpServerRequest {
    return new EdgeRequest(this.inner.modify(options), this.body)
  }

  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return this.body.stream
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return Effect.map(this.body.bytes, (bytes) => bytes.slice().buffer)
  }

  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    this.textEffect ??= Effect.map(this.body.bytes, (bytes) => new TextDecoder().decode(bytes))
    return this.textEffect
  }

  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.text, (text) => {
      const refused = BodyLimits.checkJsonText(text)
      if (refused !== undefined) return Effect.die(refused)
      return Effect.try({
        try: () => (text === "" ? null : (JSON.parse(text) as unknown)),
        catch: (cause) => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
      })
    })
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpServerError.RequestError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    const policy = this.body.policy
    if (policy._tag === "None") return Stream.empty
    return Stream.unwrap(
      Effect.as(
        this.body.admitted,
        MultipartBody.parts(
          this.body.stream,
          this.inner.headers,
          BodyStream.tooLarge(BodyPolicy.maxBytes(policy))
        )
      )
    )
  }

  get multipart(): Effect.Effect<
    Multipart.Persisted,
    Multipart.MultipartError,
    Scope.Scope | FileSystem.FileSystem | Path.Path
  > {
    return Multipart.toPersisted(this.multipartStream)
  }

  toJSON(): unknown {
    return { _id: "@effect/platform/HttpServerRequest", method: this.method, url: this.originalUrl }
  }
}

/**
 * The request edge of an API: each request is matched to its operation and handed on as an
 * `EdgeRequest` under that operation's body policy (one per operation, computed once).
 */
export const make = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => {
  const match = EndpointRouter.make(api)
  const policies = new WeakMap<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, BodyPolicy.BodyPolicy>()
  const policyOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps) => {
    let policy = policies.get(endpoint)
    if (policy === undefined) {
      policy = BodyPolicy.of(endpoint)
      policies.set(endpoint, policy)
    }
    return policy
  }
  return (request: HttpServerRequest.HttpServerRequest): EdgeRequest => {
    const found = match(request.method, request.url)
    return new EdgeRequest(
      request,
      new Body(request, found === undefined ? BodyPolicy.none : policyOf(found.endpoint))
    )
  }
}
