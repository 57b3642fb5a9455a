import { Schema } from "effect"

/** No run of the caller's organization has this id (or it was deleted). */
export class RunNotFound extends Schema.TaggedError<RunNotFound>()("RunNotFound", {
  workflow_run_id: Schema.Number
}) {
  override get message() {
    return `Run ${this.workflow_run_id} not found`
  }
}

/**
 * A run's file is not there: the call is still in progress (not saved yet), the run never had one, or a
 * retention policy or a deletion removed it. The API answers 404 for all of them, with the reason.
 */
export class RunFileNotAvailable extends Schema.TaggedError<RunFileNotAvailable>()("RunFileNotAvailable", {
  workflow_run_id: Schema.Number,
  file: Schema.Literal("recording", "transcript"),
  reason: Schema.Literal("in_progress", "not_recorded", "deleted")
}) {
  override get message() {
    switch (this.reason) {
      case "in_progress":
        return `The ${this.file} of run ${this.workflow_run_id} is not available while the call is in progress`
      case "not_recorded":
        return `Run ${this.workflow_run_id} has no ${this.file}`
      case "deleted":
        return `The ${this.file} of run ${this.workflow_run_id} is no longer stored (removed by the retention policy)`
    }
  }
}

/** A live call (`queued`, `ringing`, `in_progress`) cannot be deleted: it still holds a channel and writes files. */
export class RunStillLive extends Schema.TaggedError<RunStillLive>()("RunStillLive", {
  workflow_run_id: Schema.Number,
  status: Schema.String
}) {
  override get message() {
    return `Run ${this.workflow_run_id} is ${this.status}; it can be deleted once the call has ended`
  }
}
