import { AwsV4Signer } from "aws4fetch"
import { Effect, Redacted } from "effect"

/** An access key pair; the secret stays redacted until it is handed to the signer. */
export interface Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
}

/** What a signature covers. */
export interface SignableRequest {
  readonly method: string
  /** The whole URL as it goes on the wire, its path already encoded (`encodePath`). */
  readonly url: string
  /**
   * Every header named here is signed (`content-type` and `range` too, which aws4fetch leaves out by
   * default); `host` and `x-amz-date` are added. For S3, `x-amz-content-sha256` is the payload hash
   * (without it aws4fetch signs `UNSIGNED-PAYLOAD`); other services sign the empty body's hash.
   */
  readonly headers?: Readonly<Record<string, string>>
}

/** Where and when a signature is made. */
export interface Scope {
  readonly credentials: Credentials
  readonly region: string
  readonly service: string
  /** `YYYYMMDDTHHMMSSZ`, the instant the signature is for (`amzDate`). */
  readonly amzDate: string
}

/** The SHA-256 of nothing, in hex: the payload hash of a request without a body. */
export const emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

const encoder = new TextEncoder()

/** Hex SHA-256 of bytes or UTF-8 text, with Web Crypto. */
export const sha256Hex = (data: Uint8Array | string): Effect.Effect<string> =>
  Effect.promise(() =>
    crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : new Uint8Array(data))
  ).pipe(
    Effect.map((digest) =>
      Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
    )
  )

/** The `x-amz-date` form of an instant: `20150830T123600Z`. */
export const amzDate = (epochMillis: number): string =>
  new Date(epochMillis)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")

/** RFC 3986 encoding of every byte but the unreserved `A-Za-z0-9-._~`, as SigV4 and S3 keys require. */
export const uriEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** An S3 object path: each segment encoded, the `/` between them kept. */
export const encodePath = (path: string): string => path.split("/").map(uriEncode).join("/")

/**
 * Signs a request with AWS Signature Version 4 (aws4fetch's `AwsV4Signer`, Web Crypto) and answers the
 * headers to send: the request's own, `x-amz-date` and `authorization` (`host` is fetch's to set).
 */
export const sign = (request: SignableRequest, scope: Scope): Effect.Effect<Record<string, string>> =>
  Effect.promise(() =>
    new AwsV4Signer({
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      accessKeyId: scope.credentials.accessKeyId,
      secretAccessKey: Redacted.value(scope.credentials.secretAccessKey),
      region: scope.region,
      service: scope.service,
      datetime: scope.amzDate,
      allHeaders: true
    }).sign()
  ).pipe(Effect.map(({ headers }) => Object.fromEntries(headers)))
