import type { Document, KnowledgeBase } from "@voice-agent-platform/core"
import type {
  DocumentChunkResponse,
  DocumentResponse,
  SearchResult
} from "@voice-agent-platform/contract/knowledge-base/KnowledgeBaseApi.js"

/** A document in the API's shape: the stored record without its internal storage key. */
export const documentResponse = (document: Document.Document): typeof DocumentResponse.Type => ({
  id: document.id,
  document_uuid: document.document_uuid,
  filename: document.filename,
  file_size_bytes: document.file_size_bytes,
  file_hash: document.file_hash,
  mime_type: document.mime_type,
  processing_status: document.processing_status,
  total_chunks: document.total_chunks,
  custom_metadata: document.custom_metadata,
  parser_metadata: document.parser_metadata,
  created_at: document.created_at,
  updated_at: document.updated_at,
  organization_id: document.organization_id,
  created_by: document.created_by,
  is_active: document.is_active,
  processing_error: document.processing_error,
  source_url: document.source_url
})

/** A chunk in the API's shape. */
export const chunkResponse =
  (document: Document.Document) =>
  (chunk: Document.DocumentChunk): typeof DocumentChunkResponse.Type => ({
    document_id: document.id,
    document_uuid: document.document_uuid,
    chunk_index: chunk.index,
    text: chunk.text
  })

/** A search hit in the API's shape; scores are rounded to 6 decimals. */
export const searchResult = (hit: KnowledgeBase.SearchHit): typeof SearchResult.Type => ({
  document_id: hit.document.id,
  document_uuid: hit.document.document_uuid,
  filename: hit.document.filename,
  chunk_index: hit.chunk.index,
  text: hit.chunk.text,
  score: Math.round(hit.score * 1e6) / 1e6
})
