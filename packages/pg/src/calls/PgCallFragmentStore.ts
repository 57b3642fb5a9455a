import { SqlClient } from "@effect/sql"
import { CallFragmentStore } from "@voice-agent-platform/core/calls/CallFragmentStore.js"
import { Role, type TranscriptFragment } from "@voice-agent-platform/core/transcripts/Transcript.js"
import { Effect, Layer, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Rows from "../storage/Rows.js"
import { notFinal, RunRow } from "../runs/PgRunStore.js"

/** A fragment as its row gives it back (the timestamp comes back as a Date). */
const FragmentRow = Schema.Struct({ role: Role, text: Schema.String, timestamp: Schema.DateFromSelf })

/**
 * Live calls' transcript fragments in PostgreSQL, one row per fragment: an append is one INSERT of all its
 * fragments (so none is lost to a concurrent one), and the identity column keeps the order of appending. The insert marks the
 * run (`runs.fragments_kept`, the first time) by a trigger (migration version 9), whoever writes it.
 */
export const layer: Layer.Layer<CallFragmentStore, never, SqlClient.SqlClient> = Layer.effect(
  CallFragmentStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    /** The fragments as rows `f` (their order in `n`), one jsonb parameter. */
    const recordsetOf = (fragments: ReadonlyArray<TranscriptFragment>) =>
      Batches.recordset(
        sql,
        fragments.map((fragment, n) => ({
          n,
          role: fragment.role,
          text: fragment.text,
          timestamp: fragment.timestamp
        })),
        "f",
        'n int, role text, text text, "timestamp" timestamptz'
      )
    return {
      append: (organizationId, runId, fragments) =>
        fragments.length === 0
          ? Effect.void
          : // Run ids are global: a run with another organization's fragments is never written to (a
            // refused append inserts nothing, so its trigger marks nothing). The fragments are one jsonb
            // parameter, inserted in their order (`n`), so the identity column keeps it.
            Rows.execute(sql`
              INSERT INTO call_fragments (organization_id, run_id, role, text, "timestamp")
              SELECT ${organizationId}::int8, ${runId}::int8, f.role, f.text, f."timestamp"
              FROM ${recordsetOf(fragments)}
              WHERE NOT EXISTS (
                SELECT 1 FROM call_fragments WHERE run_id = ${runId} AND organization_id <> ${organizationId}
              )
              ORDER BY f.n`),
      // One statement: the run is locked (and its status checked again once it is) before the fragments are
      // inserted, so a call's end, which reads the fragments while it holds the run, never misses one. The
      // run is the organization's, so no other organization's fragments can be under its id. With model
      // usage, the same statement adds it to the run it holds and answers the run as written (the fragments'
      // trigger, which marks the run, runs after the statement).
      appendWhileLive: (organizationId, runId, fragments, modelUsage) =>
        Rows.first(RunRow)(sql`
          WITH held AS (
            SELECT * FROM runs
            WHERE organization_id = ${organizationId} AND workflow_run_id = ${runId} AND ${sql.unsafe(notFinal)}
            FOR UPDATE
          ), appended AS (
            INSERT INTO call_fragments (organization_id, run_id, role, text, "timestamp")
            SELECT held.organization_id, held.workflow_run_id, f.role, f.text, f."timestamp"
            FROM held, ${recordsetOf(fragments)}
            ORDER BY f.n
          )${
            modelUsage === undefined
              ? sql`
          SELECT * FROM held`
              : sql`, counted AS (
            UPDATE runs SET
              model_prompt_tokens = runs.model_prompt_tokens + ${modelUsage.usage.prompt_tokens},
              model_completion_tokens = runs.model_completion_tokens + ${modelUsage.usage.completion_tokens},
              last_activity_at = ${modelUsage.lastActivityAt}
            FROM held
            WHERE runs.organization_id = held.organization_id AND runs.workflow_run_id = held.workflow_run_id
            RETURNING runs.*
          )
          SELECT * FROM counted`
          }`),
      list: (organizationId, runId) =>
        Rows.all(FragmentRow)(sql`
          SELECT role, text, "timestamp" FROM call_fragments
          WHERE organization_id = ${organizationId} AND run_id = ${runId}
          ORDER BY id`),
      clear: (organizationId, runId) =>
        Rows.execute(
          sql`DELETE FROM call_fragments WHERE organization_id = ${organizationId} AND run_id = ${runId}`
        )
    }
  })
)
