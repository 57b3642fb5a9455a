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
