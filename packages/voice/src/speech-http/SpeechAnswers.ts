import {
  SpeechRateLimited,
  SpeechRefused,
  SpeechTextTooLong,
  SpeechUnavailable,
  type TextToSpeechError
} from "@voice-agent-platform/core/voice/TextToSpeechErrors.js"
import { type HeaderReader, retryAfterMs } from "@voice-agent-platform/core/providers/ProviderHeaders.js"

/** How a provider's headers are read, and its `Retry-After`: core's, shared with the language models. */
export { type HeaderReader, retryAfterMs }

/**
 * A speech provider's error answer as one of the port's errors. Reasons name the HTTP status and the
 * provider's error codes (identifiers only, kept when they look like one) and say which setting to check;
 * never the provider's message (OpenAI's 401 echoes part of the key), a header or a URL.
 */

/** An error answer: its status, headers and the start of its body. */
export interface ErrorAnswer {
  readonly status: number
  readonly headers: HeaderReader
  readonly body: string
}

/** What the request was, for the reasons that name it. */
export interface Context {
  /** The setting holding the key (`TTS_API_KEY`, `ELEVENLABS_API_KEY`). */
  readonly keyVariable: string
  readonly voice: string
  readonly model: string
  readonly textLength: number
  readonly now: number
}

/** What the provider said, as far as it is safe to repeat: identifiers, and whether it spoke of length. */
export interface ProviderSaid {
  readonly codes: ReadonlyArray<string>
  /** The parameter it blamed (OpenAI's `param`). */
  readonly param: string | null
  /** Whether its words say the text is too long (read, never repeated). */
  readonly tooLong: boolean
}

const identifier = (value: unknown): string | null =>
  typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : null

const lengthWords =
  /too long|too_long|above_max_length|max(imum)? length|text_too_long|exceeds? the (maximum|limit)/i

/**
 * The error of a body: OpenAI's `{error: {message, type, code, param}}`, ElevenLabs'
 * `{detail: {status, code, type, message}}` or `{detail: [{type, msg, loc}]}` (validation).
 */
export const readError = (text: string): ProviderSaid => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { codes: [], param: null, tooLong: lengthWords.test(text.slice(0, 2000)) }
  }
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
  const inner = record["error"] ?? record["detail"]
  const first = Array.isArray(inner) ? inner[0] : inner
  const error =
    typeof first === "object" && first !== null
      ? (first as Record<string, unknown>)
      : typeof first === "string"
        ? { message: first }
        : record
  const codes = [error["type"], error["code"], error["status"]]
    .map(identifier)
    .filter((code, index, all): code is string => code !== null && all.indexOf(code) === index)
  const message = [error["message"], error["msg"]].filter((m) => typeof m === "string").join(" ")
  return {
    codes,
    param: identifier(error["param"]),
    tooLong: lengthWords.test(`${codes.join(" ")} ${message.slice(0, 2000)}`)
  }
}

/** A name quoted in a reason: JSON-quoted, cut at 100 characters. */
export const quoted = (name: string) => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)

/** An error answer (any status that is not 2xx) as the port's error. */
export const fromAnswer = (answer: ErrorAnswer, context: Context): TextToSpeechError => {
  const { status } = answer
  const said = readError(answer.body)
  const words = [String(status), ...said.codes, ...(said.param === null ? [] : [`param ${said.param}`])]
  const detail = ` (${words.join(", ")})`
  const has = (code: string) => said.codes.includes(code)
  if (has("insufficient_quota") || has("quota_exceeded")) {
    return new SpeechUnavailable({
      reason: `the provider's account has no quota left${detail}: check its plan and billing`
    })
  }
  if (status === 429) {
    return new SpeechRateLimited({
      reason: `the provider is rate limiting requests${detail}`,
      retry_after_ms: retryAfterMs(answer.headers, context.now)
    })
  }
  if (status === 413 || (status >= 400 && status < 500 && said.tooLong)) {
    return new SpeechTextTooLong({ length: context.textLength, max: null })
  }
  if (status === 401 || status === 403) {
    return new SpeechRefused({
      reason: `the provider did not accept the API key${detail}: check ${context.keyVariable}`
    })
  }
  if (
    said.param === "voice" ||
    has("voice_not_found") ||
    (status === 404 && /voice/i.test(said.codes.join(" ")))
  ) {
    return new SpeechRefused({ reason: `the provider has no voice ${quoted(context.voice)}${detail}` })
  }
  if (status === 404) {
    return new SpeechRefused({
      reason: `the provider has no such voice, model or endpoint${detail}: check the voice ${quoted(context.voice)}, the model ${quoted(context.model)} and the base URL`
    })
  }
  if (status >= 400 && status < 500) {
    return new SpeechRefused({ reason: `the provider refused the request${detail}` })
  }
  if (status >= 300 && status < 400) {
    return new SpeechUnavailable({
      reason: `the speech server redirected the request${detail}: set the base URL to the address it redirects to`
    })
  }
  if (status >= 500) return new SpeechUnavailable({ reason: `the provider failed${detail}` })
  return new SpeechUnavailable({ reason: `the provider answered an unexpected status${detail}` })
}
