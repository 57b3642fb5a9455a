import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

export const DocumentId = Schema.Int.pipe(Schema.positive(), Schema.brand("DocumentId"))
export type DocumentId = typeof DocumentId.Type

/** Processing goes `pending → processing → completed | failed`. */
export const ProcessingStatus = Schema.Literal("pending", "processing", "completed", "failed")
export type ProcessingStatus = typeof ProcessingStatus.Type

/** A knowledge-base document; only its organization can read it. */
export const Document = Schema.Struct({
  id: DocumentId,
  document_uuid: Schema.String,
  organization_id: OrganizationId,
  filename: Schema.String,
  file_size_bytes: Schema.NonNegativeInt,
  file_hash: Schema.String.annotations({ description: "Lower-case hex SHA-256 of the file's bytes" }),
  mime_type: Schema.String,
  processing_status: ProcessingStatus,
  total_chunks: Schema.NonNegativeInt,
  custom_metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  parser_metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Storage key of the original file. */
  blob_key: Schema.String,
  created_by: Schema.NullOr(Schema.Int),
  is_active: Schema.Boolean,
  processing_error: Schema.NullOr(Schema.String),
  source_url: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type Document = typeof Document.Type

/** A searchable piece of a processed document. */
export const DocumentChunk = Schema.Struct({
  document_id: DocumentId,
  organization_id: OrganizationId,
  index: Schema.NonNegativeInt,
  text: Schema.String
})
export type DocumentChunk = typeof DocumentChunk.Type
