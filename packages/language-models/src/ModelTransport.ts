import {
  type LanguageModelError,
  type ModelDeadline,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { Clock, Effect, type Scope } from "effect"
import { abandoned, networkFailureCode } from "@voice-agent-platform/core/providers/ProviderExchanges.js"
import { request } from "undici"
import * as ProviderErrors from "./ProviderErrors.js"
import { headerReader } from "./RetryAfter.js"

/**
 * One POST to the model server over undici's `request` (Node's `fetch` is built on undici too, with the
 * WHATWG `Request`, `Headers` and web streams on top: about twice the processor time a request, see
 * docs/performance.md), bounded. The request is aborted when its scope closes before the reply was read
 * to its end (a failure, a reply that stopped at `[DONE]`, an interruption), and when the deadline (one
 * timer for the whole exchange, never an `AbortSignal.timeout`, which Node 20 can collect before it fires)
 * fires. The reply's bytes are counted as they arrive and the exchange is abandoned past the cap.
 * Redirects are not followed (`request` follows none): a server that redirects is misconfigured, and
 * following would carry the key elsewhere.
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

const unreachable = (error: unknown) => {
  const code = networkFailureCode(error)
  return new ModelUnavailable({
    reason: `the model server could not be reached${code === null ? "" : ` (${code})`}`
  })
}

const broken = (error: unknown) => {
  const code = networkFailureCode(error)
  return new ModelUnavailable({
    reason: `the connection to the model server broke during the reply${code === null ? "" : ` (${code})`}`
  })
}

/** The body's reads, one promise each (a Node stream's iterator: no stream machinery of Effect's). */
type BodyReader = AsyncIterator<Uint8Array>

/**
 * A read of the reply's next bytes (null at its end, when `onEnd` runs), failing once more than `max`
 * have come, or, with `stop`, ending there. One promise a network read: no stream machinery between the
 * socket and the parser, whose per-element cost was most of a streamed reply's processor time.
 */
const reading = (
  reader: BodyReader,
  max: number,
  onOverflow: "fail" | "stop",
  failed: (error: unknown) => LanguageModelError,
  onEnd: () => void
): Effect.Effect<Uint8Array | null, LanguageModelError> => {
  let received = 0
  return Effect.suspend(() =>
    received >= max && onOverflow === "stop"
      ? Effect.succeed(null)
      : Effect.tryPromise({ try: () => reader.next(), catch: failed }).pipe(
          Effect.flatMap(({ done, value }) => {
            if (done) {
              onEnd()
              return Effect.succeed(null)
            }
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
    // the whole body read: nothing is left to abort (an abort makes an error, its stack captured, each time)
    let ended = false
    const onEnd = () => void (ended = true)
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
          if (!ended) controller.abort(abandoned)
        })
    ).pipe(Effect.map(({ controller }) => controller))
    /** A failure of the exchange: the deadline's when it was aborted for it. */
    const failedWith =
      (otherwise: (error: unknown) => LanguageModelError) =>
      (error: unknown): LanguageModelError =>
        expired && deadline !== undefined ? deadline.error : otherwise(error)
    const response = yield* Effect.tryPromise({
      try: () =>
        request(endpoint.url, {
          method: "POST",
          headers: endpoint.headers,
          body,
          signal: controller.signal
        }),
      catch: failedWith(unreachable)
    })
    // a body not read to its end is destroyed with the scope (the abort above ends it too)
    yield* Effect.addFinalizer(() => Effect.sync(() => void (ended || response.body.destroy(abandoned))))
    const reader: BodyReader = response.body[Symbol.asyncIterator]()
    const headers = headerReader(response.headers)
    const status = response.statusCode
    if (status >= 200 && status < 300) {
      return {
        contentType: headers.get("content-type") ?? "",
        read: reading(reader, endpoint.maxResponseBytes, "fail", failedWith(broken), onEnd)
      }
    }
    const errorText = yield* text(reading(reader, errorBodyBytes, "stop", failedWith(broken), onEnd)).pipe(
      Effect.orElseSucceed(() => "")
    )
    return yield* Effect.fail(
      ProviderErrors.fromAnswer(
        { status, headers, body: errorText },
        { model, now: yield* Clock.currentTimeMillis }
      )
    )
  })
