import { BlobStore } from "@voice-agent-platform/core"
import { Clock, Data, Duration, Effect, Either, Layer, Option } from "effect"
import type { Redacted } from "effect"
import { paths, unknownContentType } from "./FileSystemBlobStore.js"
import * as SigV4 from "./SigV4.js"

/** Where the objects live and the key pair that may touch them. */
export interface S3Config {
  /** The service's origin, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  readonly endpoint: string
  readonly bucket: string
  readonly region: string
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  /** `endpoint/bucket/key` (default, what MinIO and most emulators expect) or `bucket.endpoint/key`. */
  readonly pathStyle?: boolean
  /** Prepended to every key with a `/`, so several deployments can share a bucket. */
  readonly prefix?: string
}

/** An endpoint that is not an http(s) origin, or an empty bucket or region. */
export class InvalidS3Config extends Data.TaggedError("InvalidS3Config")<{ readonly reason: string }> {
  override get message() {
    return `Invalid S3 configuration: ${this.reason}`
  }
}

/** S3 answered something other than success or a 404 where one is expected; never carries the secret. */
export class S3RequestError extends Data.TaggedError("S3RequestError")<{
  readonly method: string
  readonly key: string
  readonly status: number
  /** S3's `<Code>` (e.g. `SignatureDoesNotMatch`, `AccessDenied`), when the answer had one. */
  readonly code: string | undefined
}> {
  override get message() {
    return `S3 ${this.method} ${JSON.stringify(this.key)} answered ${this.status}${this.code ? ` ${this.code}` : ""}`
  }
}

/** The request did not reach S3 or did not finish in time. */
export class S3Unreachable extends Data.TaggedError("S3Unreachable")<{
  readonly method: string
  readonly key: string
  readonly cause: unknown
}> {
  override get message() {
    return `S3 ${this.method} ${JSON.stringify(this.key)} failed: ${String(this.cause)}`
  }
}

/** How long one request may take before it is a defect. */
export const requestTimeout = Duration.seconds(60)

const errorCode = (body: string) => /<Code>([^<]*)<\/Code>/.exec(body)?.[1]

/**
 * Objects in an S3-compatible bucket, signed with SigV4 over `fetch`. Keys follow the same rules as
 * the filesystem adapter (no empty, `.` or `..` segments) so a key valid on one is valid on the other,
 * and a URL never normalizes a dot segment away. S3 answers DELETE with 204 whether or not the object
 * existed, so `remove` asks with HEAD first: a concurrent writer between the two can make the answer
 * stale, which the port tolerates (it only reports). Failures are defects, as in the filesystem adapter.
 */
export const make = (config: S3Config): Effect.Effect<BlobStore.BlobStore["Type"], InvalidS3Config> =>
  Effect.gen(function* () {
    const endpoint = yield* Effect.try({
      try: () => new URL(config.endpoint),
      catch: () => new InvalidS3Config({ reason: `endpoint ${JSON.stringify(config.endpoint)} is not a URL` })
    })
    if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
      return yield* new InvalidS3Config({ reason: "endpoint must be http or https" })
    }
    if (endpoint.pathname !== "/" || endpoint.search !== "" || endpoint.hash !== "") {
      return yield* new InvalidS3Config({ reason: "endpoint must be an origin, without a path" })
    }
    if (config.bucket.length === 0) return yield* new InvalidS3Config({ reason: "bucket is empty" })
    if (config.region.length === 0) return yield* new InvalidS3Config({ reason: "region is empty" })
    const pathStyle = config.pathStyle ?? true
    const host = pathStyle ? endpoint.host : `${config.bucket}.${endpoint.host}`
    const origin = `${endpoint.protocol}//${host}`
    const prefix = (config.prefix ?? "").replace(/^\/+|\/+$/g, "")

    /** The wire path of a key, after validating it. */
    const objectPath = (key: string) =>
      Either.match(paths(key), {
        onLeft: (error) => Effect.die(error),
        onRight: () => {
          const full = prefix === "" ? key : `${prefix}/${key}`
          return Effect.succeed(
            pathStyle
              ? `/${SigV4.uriEncode(config.bucket)}/${SigV4.encodePath(full)}`
              : `/${SigV4.encodePath(full)}`
          )
        }
      })

    /** Sends one signed request; the caller decides which statuses are answers. */
    const send = (method: string, key: string, body?: { bytes: Uint8Array; contentType: string }) =>
      Effect.gen(function* () {
        const path = yield* objectPath(key)
        const url = `${origin}${path}`
        const payloadHash = body ? yield* SigV4.sha256Hex(body.bytes) : SigV4.emptyPayloadHash
        const headers = yield* SigV4.sign(
          {
            method,
            url,
            headers: {
              "x-amz-content-sha256": payloadHash,
              ...(body ? { "content-type": body.contentType } : {})
            }
          },
          {
            credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
            region: config.region,
            service: "s3",
            amzDate: SigV4.amzDate(yield* Clock.currentTimeMillis)
          }
        )
        return yield* Effect.tryPromise({
          try: async (signal) => {
            const response = await fetch(url, {
              method,
              headers,
              ...(body ? { body: new Uint8Array(body.bytes) } : {}),
              signal
            })
            // The whole answer is read here, inside the timeout, so a stalled body cannot hang a caller.
            const bytes = new Uint8Array(await response.arrayBuffer())
            return { status: response.status, headers: response.headers, bytes }
          },
          catch: (cause) => new S3Unreachable({ method, key, cause })
        }).pipe(
          Effect.timeoutFail({
            duration: requestTimeout,
            onTimeout: () => new S3Unreachable({ method, key, cause: "timed out" })
          })
        )
      }).pipe(Effect.orDie)

    type Answer = Effect.Effect.Success<ReturnType<typeof send>>

    const unexpected = (method: string, key: string, answer: Answer) =>
      Effect.die(
        new S3RequestError({
          method,
          key,
          status: answer.status,
          code:
            errorCode(new TextDecoder().decode(answer.bytes)) ??
            answer.headers.get("x-amz-error-code") ??
            undefined
        })
      )

    const ok = (status: number) => status >= 200 && status < 300

    return BlobStore.BlobStore.of({
      put: (key, blob) =>
        Effect.flatMap(send("PUT", key, { bytes: blob.bytes, contentType: blob.content_type }), (answer) =>
          ok(answer.status) ? Effect.void : unexpected("PUT", key, answer)
        ),
      get: (key) =>
        Effect.flatMap(send("GET", key), (answer) => {
          if (answer.status === 404) return Effect.succeed(Option.none())
          if (!ok(answer.status)) return unexpected("GET", key, answer)
          return Effect.succeed(
            Option.some({
              bytes: answer.bytes,
              content_type: answer.headers.get("content-type") || unknownContentType
            })
          )
        }),
      remove: (key) =>
        Effect.gen(function* () {
          const head = yield* send("HEAD", key)
          if (head.status === 404) return false
          if (!ok(head.status)) return yield* unexpected("HEAD", key, head)
          const deleted = yield* send("DELETE", key)
          if (!ok(deleted.status) && deleted.status !== 404) return yield* unexpected("DELETE", key, deleted)
          return true
        })
    })
  })

/** A BlobStore over an S3-compatible bucket (AWS S3, MinIO, R2, ...); a bad configuration fails the layer. */
export const layer = (config: S3Config): Layer.Layer<BlobStore.BlobStore, InvalidS3Config> =>
  Layer.effect(BlobStore.BlobStore, make(config))
