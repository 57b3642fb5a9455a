import { Effect, Layer, Option } from "effect"
import type { Document, DocumentChunk } from "../knowledge-base/Document.js"
import { DocumentId } from "../knowledge-base/Document.js"
import type { DocumentRef, NewDocument } from "../knowledge-base/DocumentStore.js"
import { DocumentStore } from "../knowledge-base/DocumentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { MemoryDatabaseTag } from "./MemoryDatabase.js"
import { byCreation, organizationTable, ownedBy } from "./OrganizationTable.js"

/** Knowledge-base documents and their chunks in memory. */
export const layer: Layer.Layer<DocumentStore, never, MemoryDatabaseTag> = Layer.effect(
  DocumentStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
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
      replaceChunks: (organizationId, id, replacement) =>
        db.atomically(() => {
          if (documents.own(organizationId, id) !== undefined) chunks.set(id, [...replacement])
        }),
      chunks: (organizationId, id) =>
        db.atomically(() => (documents.own(organizationId, id) === undefined ? [] : (chunks.get(id) ?? [])))
    }
  })
)
