/**
 * The readable text of a knowledge-base file: its kind (`DocumentType`), its bytes as strict UTF-8
 * (`PlainText`), then the parser of its format (`MarkdownText`, `CsvText`, `JsonText`, `HtmlText`).
 */
import { Either, Option } from "effect"
import { csv } from "./CsvText.js"
import { DocumentType, detect } from "./DocumentType.js"
import { type ExtractedDocument, type Extraction, type ExtractionError } from "./Extraction.js"
import {
  EmptyDocument,
  MalformedDocument,
  UndecodableDocument,
  UnsupportedDocumentType
} from "./KnowledgeBaseErrors.js"
import { html } from "./HtmlText.js"
import { json } from "./JsonText.js"
import { markdown } from "./MarkdownText.js"
import { decodeUtf8, plainText } from "./PlainText.js"

export { mimeTypes, supported, essence, extensionOf, detect, DocumentType } from "./DocumentType.js"
export { type ExtractionError, type Extraction, type ExtractedDocument } from "./Extraction.js"
export {
  UnsupportedDocumentType,
  UndecodableDocument,
  MalformedDocument,
  EmptyDocument
} from "./KnowledgeBaseErrors.js"
export { decodeUtf8, tidy, plainText } from "./PlainText.js"
export { markdown } from "./MarkdownText.js"
export { parseCsv, sniffDelimiter, csv } from "./CsvText.js"
export { json } from "./JsonText.js"
export { decodeEntities, html } from "./HtmlText.js"

const extractors: Readonly<
  Record<DocumentType, (source: string) => Either.Either<Extraction, MalformedDocument>>
> = {
  text: (source) => Either.right(plainText(source)),
  markdown: (source) => Either.right(markdown(source)),
  csv: (source) => Either.right(csv(source)),
  json,
  html: (source) => Either.right(html(source))
}

/** A file as the knowledge base receives it. */
export interface SourceFile {
  readonly filename: string
  /** The declared media type (from the upload), used when the extension says nothing. */
  readonly mime_type: string
  readonly bytes: Uint8Array
}

/**
 * The readable text of a file: its kind from the extension or media type, its bytes as strict UTF-8,
 * then the kind's extractor. Fails on unknown kinds, non-UTF-8 bytes, malformed JSON, and files that
 * have no text left.
 */
export const extract = (file: SourceFile): Either.Either<ExtractedDocument, ExtractionError> => {
  const type = detect(file.filename, file.mime_type)
  if (Option.isNone(type)) {
    return Either.left(new UnsupportedDocumentType({ filename: file.filename, mime_type: file.mime_type }))
  }
  const source = decodeUtf8(file.bytes)
  if (Option.isNone(source)) return Either.left(new UndecodableDocument({ filename: file.filename }))
  return Either.flatMap(extractors[type.value](source.value), (extraction) =>
    extraction.text === ""
      ? Either.left(new EmptyDocument({ filename: file.filename }))
      : Either.right({ ...extraction, type: type.value })
  )
}
