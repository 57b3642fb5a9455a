import { Cause, Clock, Context, Effect, Either, Layer, Option } from "effect"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { BlobStore } from "../files/BlobStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import * as Pages from "../pagination/Page.js"
import { SecureRandom, uuidV4 } from "../randomness/SecureRandom.js"
import * as Chunking from "./Chunking.js"
import * as DocumentProcessors from "./DocumentProcessors.js"
import type { Document, DocumentChunk } from "./Document.js"
import { DocumentId } from "./Document.js"
import * as DocumentText from "./DocumentText.js"
import type { ChunkMatch, DocumentPatch, DocumentRef } from "./DocumentStore.js"
import { DocumentStore } from "./DocumentStore.js"
import { QuotaExceeded } from "../quotas/QuotaErrors.js"
import { Quotas } from "../quotas/Quotas.js"
import { DocumentNotFound, DocumentTooLarge } from "./KnowledgeBaseErrors.js"
import * as Search from "./Search.js"

import { defaultMaxFileBytes } from "./DocumentLimits.js"
import * as OperationSpans from "../observability/OperationSpans.js"

export { defaultMaxFileBytes } from "./DocumentLimits.js"

/** The longest file name kept; longer names are shortened, keeping the extension. */
export const maxFilenameLength = 255

/** How background processing is bounded. */
export interface ProcessingOptions {
  /** Documents processed at once by this process (default 2: parsing is CPU work, one per core of a small host). */
  readonly concurrency?: number
  /**
   * A document `processing` for longer than this (default 600 s) is taken to have lost its processor
   * (a crash) and is processed again.
   */
  readonly staleAfterSeconds?: number
}

/** The processing bounds when none are given. */
export const defaultProcessing = { concurrency: 2, staleAfterSeconds: 600 } as const

/** How the knowledge base is tuned; every field has a default. */
export interface Options {
  readonly maxFileBytes?: number
  readonly chunking?: Chunking.ChunkOptions
  readonly processing?: ProcessingOptions
}

/** A file handed to the knowledge base. */
export interface Upload {
  readonly filename: string
  /** The media type the uploader declared; the extension wins when it is a known one. */
  readonly mime_type: string
  readonly bytes: Uint8Array
  readonly custom_metadata?: Readonly<Record<string, unknown>>
  readonly source_url?: string | null
  readonly created_by?: number | null
}

/** A chunk that matched a search, with its document and relevance. */
export type SearchHit = ChunkMatch

/** A page of a document's chunks, in document order. */
export interface ChunkPage {
  readonly document: Document
  readonly page: Page<DocumentChunk>
}

/** Where a document's original bytes are stored. */
export const blobKey = (organizationId: OrganizationId, documentUuid: string): string =>
  `organizations/${organizationId}/documents/${documentUuid}`

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** How callers name a document: its id, a parsed reference, or `{document_id}` as given. */
export type DocumentLookup = DocumentId | DocumentRef | string

/** `{document_id}` as given: a positive integer is the id, a UUID (any case) the `document_uuid`. */
export const parseRef = (value: string): Option.Option<DocumentRef> => {
  if (/^[1-9][0-9]{0,15}$/.test(value) && Number(value) <= Number.MAX_SAFE_INTEGER) {
    return Option.some({ _tag: "Id", id: DocumentId.make(Number(value)) })
  }
  return uuidPattern.test(value) ? Option.some({ _tag: "Uuid", uuid: value.toLowerCase() }) : Option.none()
}

/**
 * The name a document is listed under: the last path segment (browsers may send `C:\fakepath\x.txt`),
 * control characters removed, at most 255 characters with the extension kept; `document` if nothing is left.
 */
export const cleanFilename = (filename: string): string => {
  const base = (filename.split(/[\\/]/).pop() ?? "").replace(/\p{Cc}/gu, "").trim()
  if (base === "") return "document"
  if (base.length <= maxFilenameLength) return base
  const extension = DocumentText.extensionOf(base)
  const suffix = extension === "" || extension.length > 16 ? "" : `.${extension}`
  return base.slice(0, maxFilenameLength - suffix.length) + suffix
}

/** Lower-case hex SHA-256, with the Web Crypto API. */
export const sha256Hex = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", bytes)).pipe(
    Effect.map((digest) =>
      Array.from(new Uint8Array(digest), (x) => x.toString(16).padStart(2, "0")).join("")
    )
  )

/**
 * Knowledge-base documents of an organization: upload stores the original bytes and records the
 * document `pending`; processing (in the background, by a fixed number of processors that take the
 * oldest unfinished document from the store: the backlog is the stored `pending` documents, never
 * memory, so none is lost when many arrive at once or the process restarts) reads its text, splits it
 * into chunks and ends `completed`, or `failed` with `processing_error`. Search ranks the chunks of
 * the organization's completed documents. Uploading the same bytes twice makes two documents.
 */
export class KnowledgeBase extends Context.Tag("@voice-agent-platform/core/KnowledgeBase")<
  KnowledgeBase,
  {
    /** The upload size limit in bytes. */
    readonly maxFileBytes: number
    /**
     * Stores the file and records the document `pending`; processing starts in the background. Refused
     * when the organization already has as many documents as its quota (`Quotas`) allows.
     */
    readonly upload: (
      organizationId: OrganizationId,
      upload: Upload
    ) => Effect.Effect<Document, DocumentTooLarge | QuotaExceeded>
    /** Runs (or reruns) processing now and answers the document as it ends: `completed` or `failed`. */
    readonly process: (
      organizationId: OrganizationId,
      ref: DocumentLookup
    ) => Effect.Effect<Document, DocumentNotFound>
    readonly get: (
      organizationId: OrganizationId,
      ref: DocumentLookup
    ) => Effect.Effect<Document, DocumentNotFound>
    /** Newest first. */
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Document>>
    readonly chunks: (
      organizationId: OrganizationId,
      ref: DocumentLookup,
      page: PageRequest
    ) => Effect.Effect<ChunkPage, DocumentNotFound>
    /** Deletes the document, its chunks and its file. */
    readonly remove: (
      organizationId: OrganizationId,
      ref: DocumentLookup
    ) => Effect.Effect<Document, DocumentNotFound>
    /**
     * The chunks of completed documents most relevant to the query, best first, at most `limit`: ranked by
     * the document store (in the database with SQL storage). With `documentIds`, only chunks of those.
     */
    readonly search: (
      organizationId: OrganizationId,
      query: string,
      limit: number,
      documentIds?: ReadonlyArray<DocumentId>
    ) => Effect.Effect<ReadonlyArray<SearchHit>>
    /**
     * Wakes the processors to take documents left `pending` by another server or an earlier process, or
     * stuck `processing` past the stale limit. The housekeeping pass runs it.
     */
    readonly processPending: Effect.Effect<void>
    /** Waits until the processors have handled every upload made so far (for tests). */
    readonly awaitIdle: Effect.Effect<void>
  }
>() {}

/** The knowledge base with the given limits, over the document store, files and randomness. */
export const layerWith = (
  options: Options = {}
): Layer.Layer<KnowledgeBase, never, DocumentStore | BlobStore | SecureRandom> =>
  Layer.scoped(
    KnowledgeBase,
    Effect.gen(function* () {
      const store = yield* DocumentStore
      const blobs = yield* BlobStore
      const random = yield* SecureRandom
      const quotas = yield* Quotas
      const maxFileBytes = options.maxFileBytes ?? defaultMaxFileBytes
      const chunking = options.chunking ?? Chunking.defaults
      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

      const find = (organizationId: OrganizationId, ref: DocumentLookup) =>
        Effect.gen(function* () {
          const parsed: Option.Option<DocumentRef> =
            typeof ref === "string"
              ? parseRef(ref)
              : Option.some(typeof ref === "number" ? { _tag: "Id", id: ref } : ref)
          const given =
            typeof ref === "string"
              ? ref
              : typeof ref === "number"
                ? String(ref)
                : ref._tag === "Id"
                  ? String(ref.id)
                  : ref.uuid
          const found = Option.isSome(parsed)
            ? yield* store.find(organizationId, parsed.value)
            : Option.none()
          return Option.isSome(found) ? found.value : yield* new DocumentNotFound({ document_id: given })
        })

      const update = (document: Document, patch: DocumentPatch) =>
        Effect.flatMap(now, (at) => store.update(document.organization_id, document.id, patch, at))

      const fail = (document: Document, processingError: string) =>
        Effect.zipRight(
          store.replaceChunks(document.organization_id, document.id, []),
          update(document, {
            processing_status: "failed",
            processing_error: processingError,
            total_chunks: 0,
            parser_metadata: {}
          })
        )

      /** Processes a document already marked `processing`. */
      const run = (document: Document) =>
        Effect.gen(function* () {
          const blob = yield* blobs.get(document.blob_key)
          if (Option.isNone(blob)) return yield* fail(document, "file_missing: the original file is gone")
          const extracted = DocumentText.extract({
            filename: document.filename,
            mime_type: document.mime_type,
            bytes: blob.value.bytes
          })
          if (Either.isLeft(extracted)) return yield* fail(document, extracted.left.message)
          const { type, text, metadata } = extracted.right
          const chunks = Chunking.split(text, chunking)
          yield* store.replaceChunks(
            document.organization_id,
            document.id,
            chunks.map((chunk) => ({
              document_id: document.id,
              organization_id: document.organization_id,
              index: chunk.index,
              text: chunk.text
            }))
          )
          return yield* update(document, {
            processing_status: "completed",
            processing_error: null,
            total_chunks: chunks.length,
            parser_metadata: {
              document_type: type,
              ...metadata,
              character_count: text.length,
              chunk_size: chunking.size,
              chunk_overlap: chunking.overlap
            }
          })
        }).pipe(
          // A bug in a parser must not leave a document `processing` for ever.
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.failCause(cause)
              : Effect.zipRight(
                  Effect.logError("Knowledge-base processing failed", cause).pipe(
                    Effect.annotateLogs({ document_id: document.id })
                  ),
                  fail(document, "internal_error: processing failed unexpectedly")
                )
          ),
          Effect.flatMap(
            Option.match({
              // deleted while processing: nothing left to record
              onNone: () => Effect.succeed(document),
              onSome: Effect.succeed
            })
          )
        )

      const processors = yield* DocumentProcessors.start({
        store,
        run,
        concurrency: Math.max(
          1,
          Math.floor(options.processing?.concurrency ?? defaultProcessing.concurrency)
        ),
        staleAfterMillis:
          (options.processing?.staleAfterSeconds ?? defaultProcessing.staleAfterSeconds) * 1000
      })

      return {
        maxFileBytes,
        upload: OperationSpans.fn("KnowledgeBase.upload")(function* (organizationId, upload) {
          if (upload.bytes.length > maxFileBytes) {
            return yield* new DocumentTooLarge({ size_bytes: upload.bytes.length, max_bytes: maxFileBytes })
          }
          const filename = cleanFilename(upload.filename)
          const declared = DocumentText.essence(upload.mime_type) || "application/octet-stream"
          const mimeType = Option.match(DocumentText.detect(filename, declared), {
            onNone: () => declared,
            onSome: (type) => DocumentText.mimeTypes[type]
          })
          const uuid = yield* Effect.provideService(uuidV4, SecureRandom, random)
          const key = blobKey(organizationId, uuid)
          yield* blobs.put(key, { bytes: upload.bytes, content_type: mimeType })
          const inserted = yield* store.insertWithin(
            {
              document_uuid: uuid,
              organization_id: organizationId,
              filename,
              file_size_bytes: upload.bytes.length,
              file_hash: yield* sha256Hex(upload.bytes),
              mime_type: mimeType,
              processing_status: "pending",
              total_chunks: 0,
              custom_metadata: upload.custom_metadata ?? {},
              parser_metadata: {},
              blob_key: key,
              created_by: upload.created_by ?? null,
              is_active: true,
              processing_error: null,
              source_url: upload.source_url ?? null
            },
            yield* now,
            quotas.documents
          )
          if (Option.isNone(inserted)) {
            // the file was stored first (a document never points to a missing file); it goes again
            yield* blobs.remove(key)
            return yield* new QuotaExceeded({ resource: "documents", limit: quotas.documents })
          }
          const document = inserted.value
          yield* processors.wake
          return document
        }, SpanAttributes.organization),
        process: OperationSpans.fn("KnowledgeBase.process")(function* (organizationId, ref) {
          const document = yield* find(organizationId, ref)
          yield* update(document, { processing_status: "processing", processing_error: null })
          return yield* run(document)
        }, SpanAttributes.organization),
        get: OperationSpans.fn("KnowledgeBase.get")(find, SpanAttributes.organization),
        list: OperationSpans.fn("KnowledgeBase.list")(
          (organizationId, page) => store.list(organizationId, page),
          SpanAttributes.organization
        ),
        chunks: OperationSpans.fn("KnowledgeBase.chunks")(function* (organizationId, ref, page) {
          const document = yield* find(organizationId, ref)
          const chunks = yield* store.chunks(organizationId, document.id)
          return { document, page: Pages.slice(chunks, page) }
        }, SpanAttributes.organization),
        remove: OperationSpans.fn("KnowledgeBase.remove")(function* (organizationId, ref) {
          const document = yield* find(organizationId, ref)
          const removed = yield* store.remove(organizationId, document.id)
          if (Option.isNone(removed)) return yield* new DocumentNotFound({ document_id: String(document.id) })
          yield* blobs.remove(document.blob_key)
          return removed.value
        }, SpanAttributes.organization),
        search: OperationSpans.fn("KnowledgeBase.search")((organizationId, query, limit, documentIds) => {
          const terms = [...new Set(Search.tokenize(query))]
          return terms.length === 0 || documentIds?.length === 0
            ? Effect.succeed([])
            : store.search(organizationId, terms, limit, documentIds)
        }, SpanAttributes.organization),
        processPending: Effect.withSpan(processors.wake, "KnowledgeBase.processPending"),
        awaitIdle: Effect.withSpan(processors.awaitIdle, "KnowledgeBase.awaitIdle")
      }
    })
  )

/** The knowledge base with the default limits (10 MiB files, 1,000-character chunks overlapping by 100). */
export const layer = layerWith()
