import { Effect, Layer, Option } from "effect"
import type { Document, DocumentChunk } from "../knowledge-base/Document.js"
import { DocumentId } from "../knowledge-base/Document.js"
import type { DocumentRef } from "../knowledge-base/DocumentStore.js"
import { DocumentStore } from "../knowledge-base/DocumentStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as Page from "../pagination/Page.js"
import { MemoryDatabaseTag, newestFirst } from "./MemoryDatabase.js"

/** Knowledge-base documents and their chunks in memory. */
export const layer: Layer.Layer<DocumentStore, never, MemoryDatabaseTag> = Layer.effect(
  DocumentStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabaseTag
    const documents = db.table<DocumentId, Document>("documents")
    const chunks = db.table<DocumentId, ReadonlyArray<DocumentChunk>>("document_chunks")
    const own = (organizationId: OrganizationId, ref: DocumentRef) => {
      const row =
        ref._tag === "Id"
          ? documents.get(ref.id)
          : documents.values().find((d) => d.document_uuid === ref.uuid)
      return row?.organization_id === organizationId ? row : undefined
    }
    return {
      insert: (document, now) =>
        db.atomically(() => {
          const row: Document = {
            ...document,
            id: DocumentId.make(db.nextId("documents")),
            created_at: now,
            updated_at: now
          }
          documents.set(row.id, row)
          return row
        }),
      find: (organizationId, ref) => db.atomically(() => Option.fromNullable(own(organizationId, ref))),
      list: (organizationId, page) =>
        db.atomically(() =>
          Page.slice(
            newestFirst(
              documents.values().filter((d) => d.organization_id === organizationId),
              (d) => d.created_at,
              (d) => d.id
            ),
            page
          )
        ),
      update: (organizationId, id, patch, now) =>
        db.atomically(() => {
          const current = own(organizationId, { _tag: "Id", id })
          if (current === undefined) return Option.none()
          const next: Document = { ...current, ...patch, updated_at: now }
          documents.set(id, next)
          return Option.some(next)
        }),
      remove: (organizationId, id) =>
        db.atomically(() => {
          const current = own(organizationId, { _tag: "Id", id })
          if (current === undefined) return Option.none()
          documents.delete(id)
          chunks.delete(id)
          return Option.some(current)
        }),
      replaceChunks: (organizationId, id, replacement) =>
        db.atomically(() => {
          if (own(organizationId, { _tag: "Id", id }) !== undefined) chunks.set(id, [...replacement])
        }),
      chunks: (organizationId, id) =>
        db.atomically(() =>
          own(organizationId, { _tag: "Id", id }) === undefined ? [] : (chunks.get(id) ?? [])
        )
    }
  })
)
