import { SqlClient } from "@effect/sql"
import * as Search from "@voice-agent-platform/core/knowledge-base/Search.js"
import { Effect, Schema } from "effect"

/**
 * Version 3: erasure and bounded work.
 *
 * - An idempotency record keeps the run its answer names (`run_id`), so that deleting the run erases
 *   the answer in the same transaction. Answers kept before this version are linked by the
 *   `workflow_run_id` of their body; those naming runs already deleted are erased now.
 * - Knowledge-base chunks carry their searchable words (`search_text`, normalised in code by
 *   `Search.indexedWords`: lower case, no diacritics, so that it needs no `unaccent` extension) and a
 *   `tsvector` of them under a GIN index: search runs in the database and reads only matching chunks.
 * - Unfinished documents (the processing queue) and the usage reports get the indexes they read.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE idempotency_keys ADD COLUMN run_id bigint CHECK (run_id > 0)`,
  `CREATE INDEX idempotency_keys_by_run ON idempotency_keys (organization_id, run_id) WHERE run_id IS NOT NULL`,
  `UPDATE idempotency_keys SET run_id = (response -> 'body' ->> 'workflow_run_id')::bigint
    WHERE response IS NOT NULL AND json_typeof(response -> 'body') = 'object'
      AND (response -> 'body' ->> 'workflow_run_id') ~ '^[1-9][0-9]{0,15}$'`,
  // the same answer as IdempotencyRule.erasedAnswer
  `UPDATE idempotency_keys k SET fingerprint = '', run_id = NULL,
      response = json_build_object('status', 404, 'body', json_build_object('detail',
        'Run ' || k.run_id || ' was deleted; the answer kept for this Idempotency-Key was erased with it'))
    WHERE k.run_id IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM runs r WHERE r.organization_id = k.organization_id AND r.workflow_run_id = k.run_id
    )`,
  `ALTER TABLE document_chunks ADD COLUMN search_text text NOT NULL DEFAULT ''`,
  `ALTER TABLE document_chunks ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED`,
  `CREATE INDEX document_chunks_search ON document_chunks USING gin (search_vector)`,
  `CREATE INDEX documents_unfinished ON documents (updated_at, id)
    WHERE processing_status IN ('pending', 'processing')`,
  `CREATE INDEX usage_records_for_reports ON usage_records (organization_id, recorded_at)
    INCLUDE (agent_id, duration_seconds, cost)`
]

const Chunk = Schema.Struct({ document_id: Schema.Number, index: Schema.Number, text: Schema.String })

/** Chunks normalised per statement while filling `search_text` for the chunks stored before this version. */
const backfillBatch = 500

/** Fills `search_text` of existing chunks, in key order, a batch at a time. */
const backfill = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  let after: { readonly document_id: number; readonly index: number } = { document_id: 0, index: -1 }
  for (;;) {
    const rows = Schema.decodeUnknownSync(Schema.Array(Chunk))(
      yield* sql`
        SELECT document_id, "index", text FROM document_chunks
        WHERE (document_id, "index") > (${after.document_id}, ${after.index})
        ORDER BY document_id, "index" LIMIT ${backfillBatch}`
    )
    if (rows.length === 0) return
    yield* sql`
      UPDATE document_chunks c SET search_text = v.search_text
      FROM (SELECT * FROM json_to_recordset(${JSON.stringify(
        rows.map((row) => ({ ...row, search_text: Search.indexedWords(row.text) }))
      )}::json) AS x(document_id bigint, "index" integer, search_text text)) v
      WHERE c.document_id = v.document_id AND c."index" = v."index"`
    after = rows[rows.length - 1]!
  }
})

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.zipRight(
    Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
    backfill
  )
)
