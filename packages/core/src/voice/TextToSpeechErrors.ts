import { Schema } from "effect"

/**
 * Why text-to-speech gave no (or no more) audio. Every reason is written by the adapter for people to
 * read: it never holds the provider's key, a header or a URL with credentials, and names the provider's
 * own words only where they are identifiers (a status, an error code).
 */

/** The provider could not be reached, failed (5xx), broke the stream, or answered something that is not audio. */
export class SpeechUnavailable extends Schema.TaggedError<SpeechUnavailable>()("SpeechUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `speech_unavailable: ${this.reason}`
  }
}

/** The provider is rate limiting this deployment; it may say after how long to try again. */
export class SpeechRateLimited extends Schema.TaggedError<SpeechRateLimited>()("SpeechRateLimited", {
  reason: Schema.String,
  /** The provider's `Retry-After`, in milliseconds; null when it said nothing usable. */
  retry_after_ms: Schema.NullOr(Schema.NonNegativeInt)
}) {
  override get message() {
    return `speech_rate_limited: ${this.reason}`
  }
}

/** The provider refused the request: the key (401/403), the voice or the model, or the request itself (4xx). */
export class SpeechRefused extends Schema.TaggedError<SpeechRefused>()("SpeechRefused", {
  reason: Schema.String
}) {
  override get message() {
    return `speech_refused: ${this.reason}`
  }
}

/** No first audio byte within the first-byte deadline, or the audio did not end within the overall one. */
export class SpeechDeadline extends Schema.TaggedError<SpeechDeadline>()("SpeechDeadline", {
  /** Which deadline passed. */
  phase: Schema.Literal("first_byte", "overall"),
  timeout_ms: Schema.NonNegativeInt
}) {
  override get message() {
    return this.phase === "first_byte"
      ? `speech_deadline: no audio came within ${this.timeout_ms} ms`
      : `speech_deadline: the audio did not end within ${this.timeout_ms} ms`
  }
}

/** The text is longer than the port accepts (`TextToSpeech.maxTextLength`) or than the provider does. */
export class SpeechTextTooLong extends Schema.TaggedError<SpeechTextTooLong>()("SpeechTextTooLong", {
  /** The text's length in characters (UTF-16 code units). */
  length: Schema.NonNegativeInt,
  /** The bound it passed; null when the provider said the text was too long without saying its bound. */
  max: Schema.NullOr(Schema.NonNegativeInt)
}) {
  override get message() {
    return this.max === null
      ? `speech_text_too_long: the provider said the text of ${this.length} characters is too long`
      : `speech_text_too_long: the text has ${this.length} characters, at most ${this.max} are spoken at once`
  }
}

/** Every way a synthesis can fail. */
export type TextToSpeechError =
  SpeechUnavailable | SpeechRateLimited | SpeechRefused | SpeechDeadline | SpeechTextTooLong

/**
 * Whether the same text may be spoken if tried again later: an unreachable or rate-limited provider, or
 * one that ran out of time. A refusal or a text too long fails the same way again.
 */
export const isTransient = (error: TextToSpeechError): boolean =>
  error._tag === "SpeechUnavailable" || error._tag === "SpeechRateLimited" || error._tag === "SpeechDeadline"
