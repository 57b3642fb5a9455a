import { Effect, Redacted } from "effect"

/** An access key pair; the secret stays redacted until it keys the HMAC. */
export interface Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
}

/** What a signature covers: the path as sent (already URI-encoded), the query, the headers to sign. */
export interface SignableRequest {
  readonly method: string
  /** The canonical URI: the request path exactly as it goes on the wire (S3 does not encode it twice). */
  readonly path: string
  readonly query?: ReadonlyArray<readonly [string, string]>
  /** Every header named here is signed; `host` and `x-amz-date` must be among them. */
  readonly headers: Readonly<Record<string, string>>
  /** Hex SHA-256 of the body (`emptyPayloadHash` for none). */
  readonly payloadHash: string
}

/** Where and when a signature is made. */
export interface Scope {
  readonly credentials: Credentials
  readonly region: string
  readonly service: string
  /** `YYYYMMDDTHHMMSSZ`, the same value as the request's `x-amz-date` header. */
  readonly amzDate: string
}

/** The SHA-256 of nothing, in hex: the payload hash of a request without a body. */
export const emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

const encoder = new TextEncoder()

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) =>
    b.toString(16).padStart(2, "0")
  ).join("")

/** Hex SHA-256 of bytes or UTF-8 text, with Web Crypto. */
export const sha256Hex = (data: Uint8Array | string): Effect.Effect<string> =>
  Effect.promise(() =>
    crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : new Uint8Array(data))
  ).pipe(Effect.map(hex))

const hmac = (key: Uint8Array, data: string): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const cryptoKey = await crypto.subtle.importKey(
      "raw",
      new Uint8Array(key),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"]
    )
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data)))
  })

/** The `x-amz-date` form of an instant: `20150830T123600Z`. */
export const amzDate = (epochMillis: number): string =>
  new Date(epochMillis)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")

/** RFC 3986 encoding of every byte but the unreserved `A-Za-z0-9-._~`, as SigV4 requires. */
export const uriEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** An S3 object path: each segment encoded, the `/` between them kept. */
export const encodePath = (path: string): string => path.split("/").map(uriEncode).join("/")

const canonicalHeaderEntries = (headers: Readonly<Record<string, string>>) =>
  Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, " ")] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** The signed header names, lower-cased, sorted, `;`-joined. */
export const signedHeaders = (headers: Readonly<Record<string, string>>): string =>
  canonicalHeaderEntries(headers)
    .map(([name]) => name)
    .join(";")

/** The canonical request SigV4 hashes (method, path, query, headers, signed names, payload hash). */
export const canonicalRequest = (request: SignableRequest): string => {
  const query = (request.query ?? [])
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&")
  const headers = canonicalHeaderEntries(request.headers)
    .map(([name, value]) => `${name}:${value}\n`)
    .join("")
  return [
    request.method,
    request.path,
    query,
    headers,
    signedHeaders(request.headers),
    request.payloadHash
  ].join("\n")
}

const credentialScope = (scope: Scope) =>
  `${scope.amzDate.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request`

/** The string to sign: algorithm, date, credential scope and the canonical request's hash. */
export const stringToSign = (request: SignableRequest, scope: Scope): Effect.Effect<string> =>
  Effect.map(
    sha256Hex(canonicalRequest(request)),
    (hash) => `AWS4-HMAC-SHA256\n${scope.amzDate}\n${credentialScope(scope)}\n${hash}`
  )

/** The hex signature: HMAC chain date → region → service → `aws4_request`, then the string to sign. */
export const signature = (request: SignableRequest, scope: Scope): Effect.Effect<string> =>
  Effect.gen(function* () {
    const secret = encoder.encode(`AWS4${Redacted.value(scope.credentials.secretAccessKey)}`)
    const dateKey = yield* hmac(secret, scope.amzDate.slice(0, 8))
    const regionKey = yield* hmac(dateKey, scope.region)
    const serviceKey = yield* hmac(regionKey, scope.service)
    const signingKey = yield* hmac(serviceKey, "aws4_request")
    const toSign = yield* stringToSign(request, scope)
    return hex(yield* hmac(signingKey, toSign))
  })

/** The `Authorization` header value for `request`. */
export const authorization = (request: SignableRequest, scope: Scope): Effect.Effect<string> =>
  Effect.map(
    signature(request, scope),
    (sig) =>
      `AWS4-HMAC-SHA256 Credential=${scope.credentials.accessKeyId}/${credentialScope(scope)}, ` +
      `SignedHeaders=${signedHeaders(request.headers)}, Signature=${sig}`
  )
