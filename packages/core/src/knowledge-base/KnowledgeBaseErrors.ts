import { Schema } from "effect"

/** No such document in the caller's organization (another organization's document looks the same). */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()("DocumentNotFound", {
  /** The id or uuid as the caller gave it. */
  document_id: Schema.String
}) {
  override get message() {
    return `Document ${this.document_id} not found`
  }
}

/** An upload over the size limit; nothing is stored. */
export class DocumentTooLarge extends Schema.TaggedError<DocumentTooLarge>()("DocumentTooLarge", {
  size_bytes: Schema.optional(Schema.Number),
  max_bytes: Schema.Number
}) {
  override get message() {
    const size = this.size_bytes === undefined ? "" : ` (${this.size_bytes} bytes)`
    return `file_too_large: the file${size} is over the limit of ${this.max_bytes} bytes`
  }
}
