import { Schema } from "effect"

/**
 * Why a speech-to-text session could not start or did not finish. Every reason is written by the adapter
 * for people to read: it never holds the provider's key, a header or an address with credentials.
 */

/** The provider could not be reached, failed (5xx), is busy (429) or sent something that is not its protocol. */
export class SpeechToTextUnavailable extends Schema.TaggedError<SpeechToTextUnavailable>()(
  "SpeechToTextUnavailable",
  { reason: Schema.String }
) {
  override get message() {
    return `speech_to_text_unavailable: ${this.reason}`
  }
}

/** The provider refused the session: the key (401, 403) or the request (400: a language or encoding it lacks). */
export class SpeechToTextRefused extends Schema.TaggedError<SpeechToTextRefused>()("SpeechToTextRefused", {
  reason: Schema.String,
  /** The HTTP status of the refused upgrade. */
  status: Schema.Int
}) {
  override get message() {
    return `speech_to_text_refused: ${this.reason}`
  }
}

/** A step did not end in time: `connect` (the socket's opening) or `finish` (the last results after the audio). */
export class SpeechToTextDeadline extends Schema.TaggedError<SpeechToTextDeadline>()("SpeechToTextDeadline", {
  step: Schema.Literal("connect", "finish"),
  timeout_ms: Schema.NonNegativeInt
}) {
  override get message() {
    return `speech_to_text_deadline: the ${this.step === "connect" ? "connection" : "last results"} did not come within ${this.timeout_ms} ms`
  }
}

/** The connection ended in the middle of the session, before it was finished. */
export class SpeechToTextDropped extends Schema.TaggedError<SpeechToTextDropped>()("SpeechToTextDropped", {
  reason: Schema.String,
  /** The WebSocket close code (1006: the connection was lost without one). */
  close_code: Schema.Int
}) {
  override get message() {
    return `speech_to_text_dropped: ${this.reason}`
  }
}

/** Every way a speech-to-text session can fail. */
export type SpeechToTextError =
  SpeechToTextUnavailable | SpeechToTextRefused | SpeechToTextDeadline | SpeechToTextDropped

/**
 * Whether opening a new session may work: an unreachable provider, a deadline, a dropped connection. A
 * refusal (a wrong key, a language the provider lacks) fails the same way again.
 */
export const isTransient = (error: SpeechToTextError): boolean => error._tag !== "SpeechToTextRefused"
