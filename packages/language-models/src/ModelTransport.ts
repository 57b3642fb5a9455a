import {
  type LanguageModelError,
  type ModelDeadline,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { Clock, Effect, type Scope } from "effect"
import * as ProviderErrors from "./ProviderErrors.js"

/**
 * One POST to the model server over Node's `fetch`, bounded. The request is aborted when its scope
 * closes: at its end, on a failure, and when the deadline (an Effect timeout around the whole exchange,
 * never an `AbortSignal.timeout`, which Node 20 can collect before it fires) interrupts it. The reply's
 * bytes are counted as they arrive and the exchange is abandoned past the cap. Redirects are not
 * followed: a server that redirects is misconfigured, and following would carry the key elsewhere.
 */

/** Where requests go and what every one carries. */
export interface Endpoint {
  /** `{base}/chat/completions`. */
  readonly url: string
  /** The JSON content type and, with a key, `Authorization`. */
  readonly headers: Readonly<Record<string, string>>
  /** The most reply bytes read, headers aside. */
  readonly maxResponseBytes: number
}

/** A 2xx answer whose body is still to be read. */
export interface Answer {
  readonly contentType: string
  /** The body's next bytes as they arrive, counted against the cap; null once it has ended. */
  readonly read: Effect.Effect<Uint8Array | null, LanguageModelError>
}

/** The most of an error answer read to find the provider's error (the rest does not matter). */
const errorBodyBytes = 64 * 1024

/** A network failure's code (`ECONNREFUSED`), never its message (which may name an address). */
const failureCode = (error: unknown): string | null => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return null
}

const unreachable = (error: unknown) => {
  const code = failureCode(error)
  return new ModelUnavailable({
    reason: `the model server could not be reached${code === null ? "" : ` (${code})`}`
  })
}

const broken = (error: unknown) => {
  const code = failureCode(error)
  return new ModelUnavailable({
    reason: `the connection to the model server broke during the reply${code === null ? "" : ` (${code})`}`
  })
}

/**
 * A read of the reply's next bytes (null at its end), failing once more than `max` have come, or, with
 * `stop`, ending there. One promise a network read: no stream machinery between the socket and the
 * parser, whose per-element cost was most of a streamed reply's processor time.
 */
const reading = (
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
  onOverflow: "fail" | "stop",
  failed: (error: unknown) => LanguageModelError
): Effect.Effect<Uint8Array | null, LanguageModelError> => {
  let received = 0
  return Effect.suspend(() =>
    received >= max && onOverflow === "stop"
      ? Effect.succeed(null)
      : Effect.tryPromise({ try: () => reader.read(), catch: failed }).pipe(
          Effect.flatMap(({ done, value }) => {
            if (done) return Effect.succeed(null)
            received += value.byteLength
            if (received <= max) return Effect.succeed(value)
            if (onOverflow === "stop")
              return Effect.succeed(value.subarray(0, value.byteLength - (received - max)))
            return Effect.fail(new ModelUnavailable({ reason: `the reply was larger than ${max} bytes` }))
          })
        )
  )
}

/** All of a body as text. */
export const text = <E>(read: Effect.Effect<Uint8Array | null, E>): Effect.Effect<string, E> =>
  Effect.suspend(() => {
    const decoder = new TextDecoder()
    let sofar = ""
    const rest: Effect.Effect<string, E> = Effect.flatMap(read, (bytes) => {
      if (bytes === null) return Effect.succeed(sofar + decoder.decode())
      sofar += decoder.decode(bytes, { stream: true })
      return rest
    })
    return rest
  })

/**
 * Sends `body` and answers the reply's head once it is 2xx; any other status is read (at most 64 KiB)
 * and failed as the port's error. `model` is what a reason about a missing model names. With `deadline`,
 * the exchange is aborted that many milliseconds after it began, wherever it is (waiting for the head or
 * for more of the body), and fails with its error: one timer, not a race of effects around each read.
 */
export const post = (
  endpoint: Endpoint,
  body: string,
  model: string,
  deadline?: { readonly ms: number; readonly error: ModelDeadline }
): Effect.Effect<Answer, LanguageModelError, Scope.Scope> =>
  Effect.gen(function* () {
    let expired = false
    const controller = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const controller = new AbortController()
        const timer =
          deadline === undefined
            ? undefined
            : setTimeout(() => {
                expired = true
                controller.abort()
              }, deadline.ms)
        return { controller, timer }
      }),
      ({ controller, timer }) =>
        Effect.sync(() => {
          clearTimeout(timer)
          controller.abort()
        })
    ).pipe(Effect.map(({ controller }) => controller))
    /** A failure of the exchange: the deadline's when it was aborted for it. */
    const failedWith =
      (otherwise: (error: unknown) => LanguageModelError) =>
      (error: unknown): LanguageModelError =>
        expired && deadline !== undefined ? deadline.error : otherwise(error)
    const response = yield* Effect.tryPromise({
      try: () =>
        fetch(endpoint.url, {
          method: "POST",
          headers: endpoint.headers,
          body,
          redirect: "manual",
          signal: controller.signal
        }),
      catch: failedWith(unreachable)
    })
    const reader = response.body?.getReader()
    const contentType = response.headers.get("content-type") ?? ""
    if (response.status >= 200 && response.status < 300) {
      return {
        contentType,
        read:
          reader === undefined
            ? Effect.succeed(null)
            : reading(reader, endpoint.maxResponseBytes, "fail", failedWith(broken))
      }
    }
    const errorText =
      reader === undefined
        ? ""
        : yield* text(reading(reader, errorBodyBytes, "stop", failedWith(broken))).pipe(
            Effect.orElseSucceed(() => "")
          )
    return yield* Effect.fail(
      ProviderErrors.fromAnswer(
        { status: response.status, headers: response.headers, body: errorText },
        { model, now: yield* Clock.currentTimeMillis }
      )
    )
  })
