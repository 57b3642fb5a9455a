import { Schema } from "effect"

/** The call has ended: it takes no more events (409). */
export class CallAlreadyEnded extends Schema.TaggedError<CallAlreadyEnded>()("CallAlreadyEnded", {
  workflow_run_id: Schema.Number,
  status: Schema.String
}) {
  override get message() {
    return `Run ${this.workflow_run_id} has already ended (${this.status}); it takes no more call events`
  }
}

/** A reported recording is not a PCM WAV file (422); nothing was stored. */
export class InvalidRecording extends Schema.TaggedError<InvalidRecording>()("InvalidRecording", {
  workflow_run_id: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return `The recording of run ${this.workflow_run_id} is not a PCM WAV file: ${this.reason}`
  }
}
