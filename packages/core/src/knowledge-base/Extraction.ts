/** What reading a document's text yields, and the reasons it can fail. */
import type { DocumentType } from "./DocumentType.js"
import {
  UnsupportedDocumentType,
  UndecodableDocument,
  MalformedDocument,
  EmptyDocument
} from "./KnowledgeBaseErrors.js"

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
