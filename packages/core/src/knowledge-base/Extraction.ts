/** What reading a document's text yields, and the reasons it can fail. */
import { Schema } from "effect"
import { DocumentType, labels } from "./DocumentType.js"

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

/** Why a document's text could not be read; its message becomes the document's `processing_error`. */
export type ExtractionError =
  UnsupportedDocumentType | UndecodableDocument | MalformedDocument | EmptyDocument

/** The readable text of a file and what the parser learned about it. */
export interface Extraction {
  readonly text: string
  readonly metadata: Readonly<Record<string, unknown>>
}

/** The text of a file of a known kind. */
export interface ExtractedDocument extends Extraction {
  readonly type: DocumentType
}
