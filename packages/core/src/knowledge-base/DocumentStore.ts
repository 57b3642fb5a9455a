import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Document, DocumentChunk, DocumentId } from "./Document.js"

export type NewDocument = Omit<Document, "id" | "created_at" | "updated_at">
export type DocumentPatch = Partial<
  Pick<
    Document,
    | "processing_status"
    | "total_chunks"
    | "parser_metadata"
    | "processing_error"
    | "is_active"
    | "custom_metadata"
  >
>

/** A chunk that matched a search, with its document and its relevance (higher is more relevant). */
export interface ChunkMatch {
  readonly document: Document
  readonly chunk: DocumentChunk
  readonly score: number
}

/** How `{document_id}` addresses a document: its number or its uuid. */
export type DocumentRef =
  { readonly _tag: "Id"; readonly id: DocumentId } | { readonly _tag: "Uuid"; readonly uuid: string }

/** Storage of knowledge-base documents and their chunks. Only the owning organization sees a document. */
export class DocumentStore extends Context.Tag("@voice-agent-platform/core/DocumentStore")<
  DocumentStore,
  {
    readonly insert: (document: NewDocument, now: Date) => Effect.Effect<Document>
    /**
     * Stores a new document only while its organization has fewer than `limit`; None (nothing stored)
     * otherwise. Decided atomically: of simultaneous uploads at the limit, in any processes, one passes.
     */
    readonly insertWithin: (
      document: NewDocument,
      now: Date,
      limit: number
    ) => Effect.Effect<Option.Option<Document>>
    readonly find: (
      organizationId: OrganizationId,
      ref: DocumentRef
    ) => Effect.Effect<Option.Option<Document>>
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Document>>
    readonly update: (
      organizationId: OrganizationId,
      id: DocumentId,
      patch: DocumentPatch,
      now: Date
    ) => Effect.Effect<Option.Option<Document>>
    /** Removes the document and its chunks; None when there was no such document. */
    readonly remove: (
      organizationId: OrganizationId,
      id: DocumentId
    ) => Effect.Effect<Option.Option<Document>>
    /**
     * Takes the next document to process, of any organization: the one longest unfinished, `pending` or
     * `processing` since at or before `staleBefore` (its processor died). It becomes `processing` with
     * `updated_at` = `now`, in one atomic step: two claims, in any processes, never take the same one.
     */
    readonly claimNext: (now: Date, staleBefore: Date) => Effect.Effect<Option.Option<Document>>
    /** Replaces all chunks of a document at once. */
    readonly replaceChunks: (
      organizationId: OrganizationId,
      id: DocumentId,
      chunks: ReadonlyArray<DocumentChunk>
    ) => Effect.Effect<void>
    readonly chunks: (
      organizationId: OrganizationId,
      id: DocumentId
    ) => Effect.Effect<ReadonlyArray<DocumentChunk>>
    /**
     * The chunks of the organization's completed, active documents that share a word with `terms`
     * (`Search.tokenize`'s terms: lower case, without diacritics), most relevant first, at most `limit`.
     * Ties go to the newer document, then to the earlier chunk. The SQL adapter ranks in the database
     * through its full-text index and reads only matching chunks; the in-memory one scans with BM25.
     * With `documentIds`, only chunks of those documents (an agent's knowledge); an empty list finds nothing.
     */
    readonly search: (
      organizationId: OrganizationId,
      terms: ReadonlyArray<string>,
      limit: number,
      documentIds?: ReadonlyArray<DocumentId>
    ) => Effect.Effect<ReadonlyArray<ChunkMatch>>
  }
>() {}
