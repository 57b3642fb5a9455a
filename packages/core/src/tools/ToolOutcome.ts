import type { OutboundFailureCategory, OutboundResponse } from "../outbound/OutboundHttp.js"
import type { HttpApiConfig } from "./ToolDefinition.js"
import * as ResponseFields from "./ResponseFields.js"
import type { ToolError } from "./ToolResult.js"

/** The most response bytes an HTTP API tool reads; the rest is not read. */
export const maxResponseBytes = 256 * 1024

/** How much of an answer that is not the tool's result (an error page, a non-JSON body) is shown. */
export const shownErrorBodyChars = 4096

/** What an HTTP API tool's answer becomes, before the duration is known. */
export interface Outcome {
  readonly status_code: number | null
  readonly response: unknown
  readonly error: ToolError | null
}

/** Replaces every occurrence of the secrets in every string of a JSON-like value with `****`. */
export const scrub = (value: unknown, secrets: ReadonlyArray<string>): unknown => {
  // Longest first, so a header value (`Bearer <secret>`) is masked whole before the secret inside it.
  const texts = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length)
  if (texts.length === 0) return value
  const scrubText = (text: string) =>
    texts.reduce((result, secret) => result.replaceAll(secret, "****"), text)
  const walk = (current: unknown): unknown => {
    if (typeof current === "string") return scrubText(current)
    if (Array.isArray(current)) return current.map(walk)
    if (typeof current === "object" && current !== null) {
      return Object.fromEntries(Object.entries(current).map(([key, item]) => [scrubText(key), walk(item)]))
    }
    return current
  }
  return walk(value)
}

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** An answer shown as is: its JSON when it is JSON, else its first characters. */
const shown = (text: string): unknown => {
  if (text === "") return null
  const parsed = parseJson(text)
  return parsed.ok ? parsed.value : text.slice(0, shownErrorBodyChars)
}

/**
 * Classifies an answer: a non-2xx status is `http_status` (the body shown), a body past the cap or not
 * JSON is `invalid_response`, an empty body is a null result; otherwise the picked `response_fields`.
 * Secrets are scrubbed from whatever is shown (a receiver may echo the credential back).
 */
export const fromResponse = (
  config: HttpApiConfig,
  response: OutboundResponse,
  secrets: ReadonlyArray<string>
): Outcome => {
  const text = new TextDecoder().decode(response.body)
  const status = response.status
  const fail = (error: ToolError, shownBody: unknown): Outcome => ({
    status_code: status,
    response: scrub(shownBody, secrets),
    error
  })
  if (status < 200 || status > 299) {
    return fail({ type: "http_status", detail: `the receiver answered with status ${status}` }, shown(text))
  }
  if (response.truncated) {
    return fail(
      {
        type: "invalid_response",
        detail: `the response is larger than ${maxResponseBytes} bytes; only that much was read`
      },
      null
    )
  }
  if (text.trim() === "")
    return { status_code: status, response: ResponseFields.pick(null, config.response_fields), error: null }
  const parsed = parseJson(text)
  if (!parsed.ok) {
    return fail(
      { type: "invalid_response", detail: "the response is not JSON" },
      text.slice(0, shownErrorBodyChars)
    )
  }
  return {
    status_code: status,
    response: scrub(ResponseFields.pick(parsed.value, config.response_fields), secrets),
    error: null
  }
}

/** A request that got no answer, in words a tenant may see (never the error behind it). */
export const fromFailure = (category: OutboundFailureCategory, timeoutMs: number): Outcome => {
  switch (category) {
    case "timeout":
      return {
        status_code: null,
        response: null,
        error: { type: "timeout", detail: `no answer within ${timeoutMs} ms` }
      }
    case "connection_failed":
      return {
        status_code: null,
        response: null,
        error: { type: "connection_failed", detail: "the receiver could not be reached" }
      }
    case "destination_not_allowed":
      return {
        status_code: null,
        response: null,
        error: {
          type: "destination_not_allowed",
          detail:
            "the tool's URL points to an address the engine does not connect to (see OUTBOUND_ALLOW_HOSTS)"
        }
      }
  }
}
