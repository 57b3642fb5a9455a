import {
  type LanguageModelError,
  ModelInputTooLong,
  ModelRateLimited,
  ModelRefused,
  ModelUnavailable
} from "@voice-agent-platform/core/language-model/LanguageModelErrors.js"
import { type HeaderReader, retryAfterMs } from "./RetryAfter.js"

/**
 * A provider's error answer as one of the port's errors. Reasons name the HTTP status and the provider's
 * error `type`, `code` and `param` (identifiers, kept only when they look like one), and say what to
 * check; never the provider's message (OpenAI's 401 echoes part of the key), a header or a URL.
 */

/** What a provider said about an error, as far as it is safe to repeat. */
export interface ProviderError {
  readonly type: string | null
  readonly code: string | null
  readonly param: string | null
  /** Whether the provider's words say the input is too long for the model (read, never repeated). */
  readonly contextTooLong: boolean
}

/** An identifier a provider uses (`invalid_request_error`, `context_length_exceeded`); anything else is dropped. */
const identifier = (value: unknown): string | null =>
  typeof value === "number" && Number.isInteger(value)
    ? String(value)
    : typeof value === "string" && /^[A-Za-z0-9_.\-[\]]{1,64}$/.test(value)
      ? value
      : null

const contextPatterns =
  /context_length_exceeded|exceed_context_size|maximum context length|context window|context size|too many tokens|prompt is too long/i

/**
 * The error of a body: OpenAI's `{error: {message, type, code, param}}`, vLLM's older top-level
 * `{object: "error", message, type, code}`, Ollama's `{error: "…"}`.
 */
export const readError = (body: unknown): ProviderError => {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
  const inner = record["error"]
  const error =
    typeof inner === "object" && inner !== null
      ? (inner as Record<string, unknown>)
      : typeof inner === "string"
        ? { message: inner }
        : record
  const type = identifier(error["type"])
  const code = identifier(error["code"])
  const message = typeof error["message"] === "string" ? error["message"] : ""
  return {
    type,
    code,
    param: identifier(error["param"]),
    contextTooLong: contextPatterns.test(`${type ?? ""} ${code ?? ""} ${message.slice(0, 2000)}`)
  }
}

/** The body's error, or nothing known when it is not JSON. */
export const readErrorText = (text: string): ProviderError => {
  try {
    return readError(JSON.parse(text))
  } catch {
    return { type: null, code: null, param: null, contextTooLong: contextPatterns.test(text.slice(0, 2000)) }
  }
}

/** ` (429 rate_limit_exceeded)`: the status and what the provider called the error. */
const said = (status: number | null, error: ProviderError) => {
  const words = [
    ...(status === null ? [] : [String(status)]),
    ...[error.type, error.code].filter(
      (word, index, all): word is string => word !== null && all.indexOf(word) === index
    ),
    ...(error.param === null ? [] : [`param ${error.param}`])
  ]
  return words.length === 0 ? "" : ` (${words.join(", ")})`
}

/** A model's name as a reason quotes it: JSON-quoted, cut at 100 characters. */
const quoted = (model: string) => JSON.stringify(model.length > 100 ? `${model.slice(0, 100)}…` : model)

/** An error answer (any status that is not 2xx) as the port's error. */
export const fromAnswer = (
  answer: { readonly status: number; readonly headers: HeaderReader; readonly body: string },
  context: { readonly model: string; readonly now: number }
): LanguageModelError => {
  const { status } = answer
  const error = readErrorText(answer.body)
  const detail = said(status, error)
  if (status === 429) {
    if (error.code === "insufficient_quota" || error.type === "insufficient_quota") {
      return new ModelUnavailable({
        reason: `the provider's account has no quota left${detail}: check its plan and billing`
      })
    }
    return new ModelRateLimited({
      reason: `the provider is rate limiting requests${detail}`,
      retry_after_ms: retryAfterMs(answer.headers, context.now)
    })
  }
  if (status === 413 || ((status === 400 || status === 422) && error.contextTooLong)) {
    return new ModelInputTooLong({ reason: `the conversation does not fit the model's context${detail}` })
  }
  if (status === 400 || status === 422) {
    return new ModelRefused({ reason: `the provider refused the request${detail}` })
  }
  if (status === 401) {
    return new ModelUnavailable({
      reason: `the provider did not accept the API key${detail}: check LLM_API_KEY`
    })
  }
  if (status === 403) {
    return new ModelUnavailable({
      reason: `the provider denied access${detail}: check that LLM_API_KEY may use the model ${quoted(context.model)}`
    })
  }
  if (status === 404) {
    return new ModelUnavailable({
      reason: `the provider has no model ${quoted(context.model)} or no /chat/completions there${detail}: check LLM_MODEL and LLM_BASE_URL`
    })
  }
  if (status >= 300 && status < 400) {
    return new ModelUnavailable({
      reason: `the model server redirected the request${detail}: set LLM_BASE_URL to the address it redirects to`
    })
  }
  if (status >= 500) return new ModelUnavailable({ reason: `the provider failed${detail}` })
  return new ModelUnavailable({ reason: `the provider answered an unexpected status${detail}` })
}

/** An error object a provider sent inside a stream that had started well (`data: {"error": …}`). */
export const fromStreamedError = (body: unknown): LanguageModelError => {
  const error = readError(body)
  const detail = said(null, error)
  if (error.contextTooLong) {
    return new ModelInputTooLong({ reason: `the conversation does not fit the model's context${detail}` })
  }
  if (error.code === "rate_limit_exceeded" || error.type === "rate_limit_exceeded") {
    return new ModelRateLimited({
      reason: `the provider is rate limiting requests${detail}`,
      retry_after_ms: null
    })
  }
  return new ModelUnavailable({
    reason: `the provider reported an error in the middle of the reply${detail}`
  })
}
