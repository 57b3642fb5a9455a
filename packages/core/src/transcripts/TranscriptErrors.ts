import { Schema } from "effect"

/** A line of a raw transcript that is not `[<timestamp>] <role>: <text>`; `line` counts from 1. */
export class MalformedTranscriptLine extends Schema.TaggedError<MalformedTranscriptLine>()(
  "MalformedTranscriptLine",
  { line: Schema.Number, content: Schema.String }
) {
  override get message(): string {
    return `Transcript line ${this.line} is not "[<ISO 8601 timestamp>] <user|assistant>: <text>": ${JSON.stringify(this.content)}`
  }
}
