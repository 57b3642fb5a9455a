import { Data } from "effect"
import { Schema } from "effect"
import { ImprovementStatus } from "./Improvement.js"

export class ImprovementNotFound extends Schema.TaggedError<ImprovementNotFound>()("ImprovementNotFound", {
  improvement_id: Schema.Number
}) {
  override get message() {
    return `Improvement ${this.improvement_id} not found`
  }
}

/** Accepting or dismissing a suggestion that was already decided (409). */
export class ImprovementAlreadyDecided extends Schema.TaggedError<ImprovementAlreadyDecided>()(
  "ImprovementAlreadyDecided",
  { improvement_id: Schema.Number, status: ImprovementStatus }
) {
  override get message() {
    return `already_decided: improvement ${this.improvement_id} is already ${this.status}`
  }
}

/** A suggestion that was already accepted or dismissed cannot be decided again. */
export class AlreadyDecided extends Data.TaggedError("AlreadyDecided")<{
  readonly status: Exclude<ImprovementStatus, "pending">
}> {}
