import { Schema } from "effect"

/** The failures of live calls and browser sessions (`RecordingSpool`, `BrowserSessionLimits`). */

/** A spool that could not write or read (a full disk): the call's recording is given up, the call goes on. */
export class RecordingSpoolFailed extends Schema.TaggedError<RecordingSpoolFailed>()("RecordingSpoolFailed", {
  message: Schema.String
}) {}

/** The organization has its limit of live browser sessions (429 with `Retry-After`). */
export class BrowserSessionsBusy extends Schema.TaggedError<BrowserSessionsBusy>()("BrowserSessionsBusy", {
  limit: Schema.Int,
  retry_after_seconds: Schema.Int
}) {
  override get message() {
    return `The organization already has ${this.limit} live browser voice sessions, its limit; retry after ${this.retry_after_seconds} seconds`
  }
}

/** The transport failed (its socket dropped, a message it could not send). */
export class MediaSessionFailed extends Schema.TaggedError<MediaSessionFailed>()("MediaSessionFailed", {
  reason: Schema.String
}) {}

/** Why a token was refused; the socket is refused the same way for all of them, so the reason is for logs. */
export class StreamTokenRefused extends Schema.TaggedError<StreamTokenRefused>()("StreamTokenRefused", {
  reason: Schema.Literal("malformed", "bad_signature", "expired")
}) {
  override get message(): string {
    return `The media stream token is refused (${this.reason})`
  }
}
