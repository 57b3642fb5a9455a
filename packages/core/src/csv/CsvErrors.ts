import { Schema } from "effect"

/** The document is not CSV as RFC 4180 writes it, or is bigger than the limits allow. */
export class MalformedCsv extends Schema.TaggedError<MalformedCsv>()("MalformedCsv", {
  /** The 1-based record (line of the file, for records without line breaks) where it went wrong. */
  record: Schema.Int,
  reason: Schema.String
}) {
  override get message() {
    return `The CSV file is malformed at record ${this.record}: ${this.reason}`
  }
}
