import { SqlClient } from "@effect/sql"
import type { DocumentId } from "@voice-agent-platform/core/knowledge-base/Document.js"
import { Document, DocumentChunk } from "@voice-agent-platform/core/knowledge-base/Document.js"
import type { DocumentPatch, NewDocument } from "@voice-agent-platform/core/knowledge-base/DocumentStore.js"
import { DocumentStore } from "@voice-agent-platform/core/knowledge-base/DocumentStore.js"
import * as Search from "@voice-agent-platform/core/knowledge-base/Search.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import * as Paging from "../storage/Paging.js"
import * as QuotaGuard from "../storage/QuotaGuard.js"
import * as Rows from "../storage/Rows.js"

/** Chunks per INSERT statement: well below PostgreSQL's 65,535 parameters a statement. */
const chunksPerStatement = 1000

const Found = Schema.Struct({ id: Schema.Number })

/** A matching chunk's row: its document's columns, and the chunk's own with a `c_` prefix. */
const MatchRow = Schema.Struct({
  ...Document.fields,
  c_index: DocumentChunk.fields.index,
  c_text: DocumentChunk.fields.text,
  c_score: Schema.Number
})

/** Column values of document fields: the metadata objects as JSON text, which the jsonb columns read. */
const columns = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      key === "custom_metadata" || key === "parser_metadata" ? JSON.stringify(value) : value
    ])
  )

/**
 * The search query: the GIN index on `search_vector` finds the chunks holding any of the terms (the
 * matches are a materialised step, so the planner never walks a document's chunks instead); only
 * those are read and ranked (`ts_rank_cd`, cover density, with normalisation 1: divided by 1 + the log
 * of the chunk's length, so a word said often in a short chunk ranks first), and at most `limit` rows
 * leave the database. The terms are letters and digits only (`Search.tokenize`), so joining them with
 * `|` cannot inject tsquery syntax. With `documentIds`, only the matches in those documents are kept: a
 * filter on what the index found, not inside the matches' step, where the planner would rather read the
 * named documents' every chunk by the primary key (the terms are the selective part of a search). Exported
 * for the test that checks the plan uses the index.
 */
export const searchStatement = (
  sql: SqlClient.SqlClient,
  organizationId: OrganizationId,
  terms: ReadonlyArray<string>,
  limit: number,
  documentIds?: ReadonlyArray<DocumentId>
) => sql`
  WITH matches AS MATERIALIZED (
    SELECT c.document_id, c."index", c.text, ts_rank_cd(c.search_vector, q.query, 1)::float8 AS score
    FROM to_tsquery('simple'::regconfig, ${terms.join(" | ")}) AS q(query)
    JOIN document_chunks c ON c.search_vector @@ q.query
    WHERE c.organization_id = ${organizationId}
  )
  SELECT d.*, m."index" AS c_index, m.text AS c_text, m.score AS c_score
  FROM matches m
  JOIN documents d ON d.organization_id = ${organizationId} AND d.id = m.document_id
  WHERE d.processing_status = 'completed' AND d.is_active${
    documentIds === undefined ? sql`` : sql` AND d.id = ANY(${documentIds}::int8[])`
  }
  ORDER BY m.score DESC, d.created_at DESC, d.id DESC, m."index"
  LIMIT ${Math.floor(limit)}`

/**
 * Knowledge-base documents and their chunks in PostgreSQL. Chunks go with their document (a cascading
 * foreign key), and a replacement of a document's chunks is one transaction that holds the document's row,
 * so that two replacements, or a replacement and a removal, never interleave.
 */
export const layer: Layer.Layer<DocumentStore, never, SqlClient.SqlClient> = Layer.effect(
  DocumentStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(Document)
    const insert = (document: NewDocument, now: Date) =>
      Rows.single(Document)(sql`
        INSERT INTO documents ${sql.insert(columns({ ...document, created_at: now, updated_at: now }))}
        RETURNING *`)
    const documentsList = Paging.list(
      sql,
      { table: "documents", orderBy: "created_at DESC, id DESC" },
      Rows.all(Document)
    )

    return {
      insert,
      insertWithin: (document, now, limit) =>
        QuotaGuard.insertWithin(sql, "documents", document.organization_id, limit, insert(document, now)),
      find: (organizationId, ref) =>
        ref._tag === "Id"
          ? one(sql`SELECT * FROM documents WHERE organization_id = ${organizationId} AND id = ${ref.id}`)
          : one(sql`
              SELECT * FROM documents
              WHERE organization_id = ${organizationId} AND document_uuid = ${ref.uuid}`),
      list: (organizationId, page) => documentsList(sql`organization_id = ${organizationId}`, page),
      update: (organizationId, id, patch: DocumentPatch, now) =>
        one(sql`
          UPDATE documents SET ${sql.update(columns({ ...patch, updated_at: now }))}
          WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`),
      // The chunks go with the row (ON DELETE CASCADE), in the same statement.
      remove: (organizationId, id) =>
        one(sql`DELETE FROM documents WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`),
      // The queue is the table: the oldest unfinished row not held by another claim (SKIP LOCKED), found
      // through the partial index documents_unfinished.
      claimNext: (now, staleBefore) =>
        one(sql`
          UPDATE documents SET processing_status = 'processing', processing_error = NULL, updated_at = ${now}
          WHERE id = (
            SELECT id FROM documents
            WHERE processing_status IN ('pending', 'processing')
              AND (processing_status = 'pending' OR updated_at <= ${staleBefore})
            ORDER BY updated_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
          )
          RETURNING *`),
      replaceChunks: (organizationId, id, chunks) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const document = yield* Rows.first(Found)(sql`
                SELECT id FROM documents WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`)
              if (Option.isNone(document)) return
              yield* Rows.execute(sql`DELETE FROM document_chunks WHERE document_id = ${id}`)
              const rows = chunks.map((chunk) => ({
                document_id: id,
                organization_id: organizationId,
                index: chunk.index,
                text: chunk.text,
                search_text: Search.indexedWords(chunk.text)
              }))
              yield* Effect.forEach(
                Arr.chunksOf(rows, chunksPerStatement),
                (batch) => Rows.execute(sql`INSERT INTO document_chunks ${sql.insert(batch)}`),
                { discard: true }
              )
            })
          )
          .pipe(Effect.orDie),
      chunks: (organizationId, id) =>
        Rows.all(DocumentChunk)(sql`
          SELECT document_id, organization_id, "index", text FROM document_chunks
          WHERE organization_id = ${organizationId} AND document_id = ${id} ORDER BY "index"`),
      search: (organizationId, terms, limit, documentIds) =>
        terms.length === 0 || limit < 1 || documentIds?.length === 0
          ? Effect.succeed([])
          : Rows.all(MatchRow)(searchStatement(sql, organizationId, terms, limit, documentIds)).pipe(
              Effect.map((rows) =>
                rows.map(({ c_index, c_text, c_score, ...document }) => ({
                  document,
                  chunk: {
                    document_id: document.id,
                    organization_id: document.organization_id,
                    index: c_index,
                    text: c_text
                  },
                  score: c_score
                }))
              )
            )
    }
  })
)
