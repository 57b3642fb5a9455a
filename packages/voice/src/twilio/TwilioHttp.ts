import {
  type CarrierRequestError,
  CarrierDeadline,
  CarrierRefused,
  CarrierUnavailable
} from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Duration, Effect } from "effect"
import { networkFailureCode } from "@voice-agent-platform/core/providers/ProviderExchanges.js"
import { request as undiciRequest } from "undici"

/**
 * One request to Twilio's REST API over undici's `request` (Node's `fetch` without its WHATWG layers),
 * bounded: a deadline over the whole exchange (the request is aborted when it passes, or when the effect
 * is interrupted), a cap on the bytes read, no redirects followed (they would carry the credentials
 * elsewhere). Failures are the carrier port's errors; their reasons name the HTTP status, Twilio's numeric
 * error `code` and a network failure's code (`ECONNREFUSED`), never a URL, a header, Twilio's message or
 * anything of the credentials.
 */

export interface Request {
  readonly method: "GET" | "POST"
  readonly url: string
  /** `Basic …`: sent as `Authorization`, and nowhere else. */
  readonly authorization: string
  /** A form body (`application/x-www-form-urlencoded`); none for a GET. */
  readonly form?: URLSearchParams
  readonly timeoutMs: number
  readonly maxResponseBytes: number
}

/** A 2xx answer's status and body. */
export interface Answer {
  readonly status: number
  readonly body: string
}

class TooLarge {
  readonly _tag = "TooLarge"
}

/** Reads at most `max` bytes of a body as text; more fails with `TooLarge`. */
const readCapped = async (body: AsyncIterable<Uint8Array>, max: number): Promise<string> => {
  const decoder = new TextDecoder()
  let text = ""
  let received = 0
  // leaving the loop early (too large, a failure) destroys the body
  for await (const value of body) {
    received += value.byteLength
    if (received > max) throw new TooLarge()
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

/** Twilio's numeric error code from an error body (`{"code": 21211, "message": …}`), or null. */
export const twilioCode = (body: string): number | null => {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code
    return typeof code === "number" && Number.isInteger(code) && code > 0 && code < 1e6 ? code : null
  } catch {
    return null
  }
}

/** An answer that is not 2xx, as the port's error. */
export const fromStatus = (status: number, body: string): CarrierRequestError => {
  const code = twilioCode(body)
  const detail = ` (${status}${code === null ? "" : `, Twilio error ${code}`})`
  if (status === 401 || status === 403) {
    return new CarrierRefused({
      reason: `Twilio did not accept the credentials${detail}: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN`,
      status,
      code
    })
  }
  if (status === 404) {
    return new CarrierRefused({ reason: `Twilio has no such call or account${detail}`, status, code })
  }
  if (status === 429) return new CarrierUnavailable({ reason: `Twilio is rate limiting requests${detail}` })
  if (status >= 400 && status < 500) {
    return new CarrierRefused({ reason: `Twilio refused the request${detail}`, status, code })
  }
  // a 5xx may come after Twilio carried the request out (a call created, its answer lost)
  if (status >= 500)
    return new CarrierUnavailable({ reason: `Twilio failed${detail}`, outcome_unknown: true })
  if (status >= 300 && status < 400) {
    return new CarrierUnavailable({
      reason: `Twilio's address redirected the request${detail}: check TWILIO_API_BASE_URL`
    })
  }
  return new CarrierUnavailable({
    reason: `Twilio answered an unexpected status${detail}`,
    outcome_unknown: true
  })
}

/**
 * Network failures that happen before a request is sent (no connection was made): nothing reached
 * Twilio. Any other failure (a connection reset or closed after the request was written) leaves the
 * request's outcome unknown.
 */
export const notSentCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])

/** Sends the request and answers its 2xx body; anything else fails with the port's error. */
export const send = (request: Request): Effect.Effect<Answer, CarrierRequestError> =>
  Effect.tryPromise({
    try: async (signal) => {
      // undici's `request` follows no redirect
      const response = await undiciRequest(request.url, {
        method: request.method,
        headers: {
          authorization: request.authorization,
          accept: "application/json",
          ...(request.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" })
        },
        ...(request.form === undefined ? {} : { body: request.form.toString() }),
        signal
      })
      return { status: response.statusCode, body: await readCapped(response.body, request.maxResponseBytes) }
    },
    catch: (error): CarrierRequestError => {
      if (error instanceof TooLarge) {
        return new CarrierUnavailable({
          reason: `Twilio's answer was larger than ${request.maxResponseBytes} bytes`,
          outcome_unknown: true
        })
      }
      const code = networkFailureCode(error)
      return new CarrierUnavailable({
        reason: `Twilio could not be reached${code === null ? "" : ` (${code})`}`,
        outcome_unknown: code === null || !notSentCodes.has(code)
      })
    }
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(request.timeoutMs),
      onTimeout: () => new CarrierDeadline({ timeout_ms: request.timeoutMs })
    }),
    Effect.flatMap((answer) =>
      answer.status >= 200 && answer.status < 300
        ? Effect.succeed(answer)
        : Effect.fail(fromStatus(answer.status, answer.body))
    )
  )
