import { Effect, Layer, Option } from "effect"
import type { Document, DocumentChunk } from "../knowledge-base/Document.js"
import { DocumentId } from "../knowledge-base/Document.js"
import type { ChunkMatch, DocumentRef, NewDocument } from "../knowledge-base/DocumentStore.js"
import * as Search from "../knowledge-base/Search.js"
import { DocumentStore } from "../knowledge-base/DocumentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { MemoryDatabase, newestFirst } from "./MemoryDatabase.js"
import { byCreation, organizationTable, ownedBy } from "./OrganizationTable.js"

/** Knowledge-base documents and their chunks in memory. */
export const layer: Layer.Layer<DocumentStore, never, MemoryDatabase> = Layer.effect(
  DocumentStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const documents = organizationTable(db.table<DocumentId, Document>("documents"), byCreation)
    const chunks = db.table<DocumentId, ReadonlyArray<DocumentChunk>>("document_chunks")
    const findDocument = (organizationId: OrganizationId, ref: DocumentRef) =>
      ref._tag === "Id"
        ? documents.own(organizationId, ref.id)
        : ownedBy(
            organizationId,
            documents.values().find((d) => d.document_uuid === ref.uuid)
          )
    const insertRow = (document: NewDocument, now: Date): Document => {
      const row: Document = {
        ...document,
        id: DocumentId.make(db.nextId("documents")),
        created_at: now,
        updated_at: now
      }
      documents.set(row.id, row)
      return row
    }
    return {
      insert: (document, now) => db.atomically(() => insertRow(document, now)),
      insertWithin: (document, now, limit) =>
        db.atomically(() =>
          documents.ownRows(document.organization_id).length >= limit
            ? Option.none()
            : Option.some(insertRow(document, now))
        ),
      find: (organizationId, ref) =>
        db.atomically(() => Option.fromNullable(findDocument(organizationId, ref))),
      list: (organizationId, page) => db.atomically(() => documents.newestPage(organizationId, page)),
      update: (organizationId, id, patch, now) =>
        db.atomically(() =>
          documents.replaceOwn(organizationId, id, (document) => ({ ...document, ...patch, updated_at: now }))
        ),
      remove: (organizationId, id) =>
        db.atomically(() => {
          const removed = documents.removeOwn(organizationId, id)
          if (Option.isSome(removed)) chunks.delete(id)
          return removed
        }),
      claimNext: (now, staleBefore) =>
        db.atomically(() => {
          const [next] = documents
            .values()
            .filter(
              (d) =>
                d.processing_status === "pending" ||
                (d.processing_status === "processing" && d.updated_at.getTime() <= staleBefore.getTime())
            )
            .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime() || a.id - b.id)
          if (next === undefined) return Option.none()
          const claimed: Document = {
            ...next,
            processing_status: "processing",
            processing_error: null,
            updated_at: now
          }
          documents.set(claimed.id, claimed)
          return Option.some(claimed)
        }),
      replaceChunks: (organizationId, id, replacement) =>
        db.atomically(() => {
          if (documents.own(organizationId, id) !== undefined) chunks.set(id, [...replacement])
        }),
      chunks: (organizationId, id) =>
        db.atomically(() => (documents.own(organizationId, id) === undefined ? [] : (chunks.get(id) ?? []))),
      // A scan of every chunk of the organization, ranked by BM25 over them: right for the data sizes
      // an in-memory engine holds.
      search: (organizationId, terms, limit, documentIds) =>
        db.atomically(() => {
          const candidates: Array<Omit<ChunkMatch, "score">> = []
          const wanted = documentIds === undefined ? undefined : new Set<number>(documentIds)
          const searchable = newestFirst(
            documents.ownRows(
              organizationId,
              (d) =>
                d.processing_status === "completed" &&
                d.is_active &&
                (wanted === undefined || wanted.has(d.id))
            ),
            (d) => d.created_at,
            (d) => d.id
          )
          for (const document of searchable) {
            for (const chunk of chunks.get(document.id) ?? []) candidates.push({ document, chunk })
          }
          return Search.rank(terms.join(" "), candidates, (c) => c.chunk.text, limit).map(
            ({ item, score }): ChunkMatch => ({ ...item, score })
          )
        })
    }
  })
)
