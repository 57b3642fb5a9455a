import { DocumentType, labels } from "./DocumentType.js"
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

/** A file of a kind the knowledge base does not read. */
export class UnsupportedDocumentType extends Schema.TaggedError<UnsupportedDocumentType>()(
  "UnsupportedDocumentType",
  { filename: Schema.String, mime_type: Schema.String }
) {
  override get message() {
    return `unsupported_type: ${this.filename} (${this.mime_type}) is not plain text, Markdown, CSV, JSON or HTML`
  }
}

/** Bytes that are not UTF-8 text. */
export class UndecodableDocument extends Schema.TaggedError<UndecodableDocument>()("UndecodableDocument", {
  filename: Schema.String
}) {
  override get message() {
    return `not_utf8: ${this.filename} is not UTF-8 text`
  }
}

/** A file whose content does not follow its format (JSON that does not parse). */
export class MalformedDocument extends Schema.TaggedError<MalformedDocument>()("MalformedDocument", {
  type: DocumentType,
  detail: Schema.String
}) {
  override get message() {
    return `malformed_${this.type}: the file is not valid ${labels[this.type]}: ${this.detail}`
  }
}

/** A file with nothing to index once its markup is gone. */
export class EmptyDocument extends Schema.TaggedError<EmptyDocument>()("EmptyDocument", {
  filename: Schema.String
}) {
  override get message() {
    return `no_text: ${this.filename} has no text to index`
  }
}
