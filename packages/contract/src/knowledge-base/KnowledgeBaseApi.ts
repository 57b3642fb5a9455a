import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import * as Document from "@voice-agent-platform/core/knowledge-base/Document.js"
import * as DocumentLimits from "@voice-agent-platform/core/knowledge-base/DocumentLimits.js"
import { Option, Schema } from "effect"
import { Conflict, NotFound } from "../errors/ApiErrors.js"
import { Authentication } from "../middleware/Authentication.js"
import { JsonObject, strict } from "../shared/Json.js"
import { PageOf, PageQuery } from "../shared/Pagination.js"
import { Timestamp } from "../shared/Timestamp.js"

/** A knowledge-base document as the API shows it: every field of the specification. */
export const DocumentResponse = Schema.Struct({
  // ids and counts as plain integers on the wire (the core's are branded or bounded)
  id: Schema.Int,
  ...Document.Document.pick("document_uuid", "filename").fields,
  file_size_bytes: Schema.Int,
  ...Document.Document.pick("file_hash", "mime_type", "processing_status").fields,
  total_chunks: Schema.Int,
  custom_metadata: JsonObject,
  parser_metadata: JsonObject,
  created_at: Timestamp,
  updated_at: Timestamp,
  organization_id: Schema.Int,
  ...Document.Document.pick("created_by", "is_active", "processing_error", "source_url").fields
}).annotations({ identifier: "KnowledgeBaseDocument" })

/** One piece of a processed document's text, in document order. */
export const DocumentChunkResponse = Schema.Struct({
  document_id: Schema.Int,
  document_uuid: Schema.String,
  chunk_index: Schema.Int,
  text: Schema.String
}).annotations({ identifier: "KnowledgeBaseDocumentChunk" })

/** `POST /knowledge-base/search`. */
export const SearchRequest = strict(
  Schema.Struct({
    query: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(1000)),
    limit: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 50)), { default: () => 5, exact: true })
  }).annotations({ identifier: "KnowledgeBaseSearchRequest" })
)

/** A chunk that matched a search. */
export const SearchResult = Schema.Struct({
  document_id: Schema.Int,
  document_uuid: Schema.String,
  filename: Schema.String,
  chunk_index: Schema.Int,
  text: Schema.String,
  score: Schema.Number.annotations({
    description:
      "Relevance; higher is more relevant. Comparable within one answer only (the SQL storage ranks with PostgreSQL full-text search, the in-memory one with BM25)"
  })
}).annotations({ identifier: "KnowledgeBaseSearchResult" })

/** The answer of a search: the best chunks first. */
export const SearchResponse = Schema.Struct({
  query: Schema.String,
  results: Schema.Array(SearchResult)
}).annotations({ identifier: "KnowledgeBaseSearchResponse" })

/** The upload form's text fields are small: `custom_metadata` gets 64 KiB, which is plenty for labels. */
export const maxUploadFieldBytes = 64 * 1024

/** `file`, `custom_metadata`, `source_url`, and a little room so that extra fields are reported by name. */
export const maxUploadParts = 8

/**
 * The whole upload form: the largest document (10 MiB) with room for its text fields and part headers.
 * A body over it is 413 as soon as it is crossed; a file over the knowledge base's limit is 422 first.
 */
export const maxUploadBytes = DocumentLimits.defaultMaxFileBytes + 1024 * 1024

/**
 * The upload form. It is read as a stream by the handler (so the size limits apply while reading and
 * every failing field is reported as a 422); the schema documents the form and declares its limits.
 */
export const UploadDocumentForm = HttpApiSchema.MultipartStream(
  Schema.Struct({
    file: Multipart.FileSchema.annotations({
      description: "The document: plain text, Markdown, CSV, JSON or HTML, UTF-8, at most 10 MiB"
    }),
    custom_metadata: Schema.optional(
      Schema.String.annotations({ description: "A JSON object, as text; stored and returned as given" })
    ),
    source_url: Schema.optional(
      Schema.String.annotations({ description: "Where the document came from: an absolute http(s) URL" })
    )
  }).annotations({ identifier: "UploadDocumentForm" }),
  {
    maxParts: Option.some(maxUploadParts),
    maxFieldSize: maxUploadFieldBytes,
    maxTotalSize: Option.some(maxUploadBytes)
  }
)

/** `{document_id}`: the document's number or its `document_uuid`. */
export const DocumentIdParam = Schema.String.pipe(
  Schema.pattern(
    /^(?:[1-9][0-9]{0,15}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$/,
    {
      message: () => "expected the document's number or its document_uuid"
    }
  )
).annotations({ description: "The document's number (`id`) or its `document_uuid`" })

const documentPath = Schema.Struct({ document_id: DocumentIdParam })

/** Knowledge-base documents: upload, processing, chunks, search. */
export class KnowledgeBaseApi extends HttpApiGroup.make("knowledgeBase")
  .add(
    HttpApiEndpoint.post("upload", "/knowledge-base/documents")
      .setPayload(UploadDocumentForm)
      .addSuccess(DocumentResponse)
      .addError(Conflict)
      .annotateContext(
        OpenApi.annotations({
          summary: "Upload a document",
          description:
            "Uploads a file as `multipart/form-data` (part `file`; optional `custom_metadata`, a JSON object as text, and `source_url`). The document is answered `pending` (or already `processing`) and processed in the background: it ends `completed` with `total_chunks`, or `failed` with `processing_error` (for example an unsupported type or a file that is not UTF-8). Readable types: plain text, Markdown, CSV, JSON and HTML, by extension or declared media type. A file over 10 MiB, a missing file or a bad field answers 422; a body that is not `multipart/form-data` 415; a form over 11 MiB in all 413. Uploading the same bytes again makes another document with the same `file_hash`. An organization has at most 1,000 documents unless the server is configured otherwise (`QUOTA_DOCUMENTS`); one more answers 409 `{detail}` and stores nothing."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/knowledge-base/documents")
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(DocumentResponse, "KnowledgeBaseDocumentPage"))
      .annotateContext(
        OpenApi.annotations({
          summary: "List documents",
          description: "The organization's knowledge-base documents, newest first."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/knowledge-base/documents/:document_id")
      .setPath(documentPath)
      .addSuccess(DocumentResponse)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Get document details",
          description:
            "One document by number or `document_uuid`, with its processing status. Users can access only documents of their own organization; another organization's document answers 404."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("chunks", "/knowledge-base/documents/:document_id/chunks")
      .setPath(documentPath)
      .setUrlParams(PageQuery)
      .addSuccess(PageOf(DocumentChunkResponse, "KnowledgeBaseDocumentChunkPage"))
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "List document chunks",
          description:
            "The pieces a processed document's text was split into (about 1,000 characters each, consecutive pieces sharing up to 100), in document order. Empty until processing completes."
        })
      )
  )
  .add(
    HttpApiEndpoint.del("delete", "/knowledge-base/documents/:document_id")
      .setPath(documentPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
      .annotateContext(
        OpenApi.annotations({
          summary: "Delete a document",
          description: "Deletes the document, its chunks and its stored file; answers 204."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("search", "/knowledge-base/search")
      .setPayload(SearchRequest)
      .addSuccess(SearchResponse)
      .annotateContext(
        OpenApi.annotations({
          summary: "Search the knowledge base",
          description:
            "Ranks the chunks of the organization's completed documents by relevance to `query` (any of its words; letter case and diacritics are ignored; a word repeated in a short chunk ranks higher) and answers the best `limit` (1..50, default 5), best first; ties go to the newer document. The search runs in the database through a full-text index. A query with no words answers no results."
        })
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1") {}
