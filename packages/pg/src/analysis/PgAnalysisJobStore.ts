import { SqlClient } from "@effect/sql"
import { AnalysisJob } from "@voice-agent-platform/core/analysis/AnalysisJob.js"
import { AnalysisJobStore } from "@voice-agent-platform/core/analysis/AnalysisJobStore.js"
import { Effect, Layer, Option, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Rows from "../storage/Rows.js"

/** A job as a claim holds it. */
const ClaimedRow = Schema.Struct({
  ...AnalysisJob.fields,
  lease: Schema.String,
  lease_until: Schema.DateFromSelf
})

const Found = Schema.Struct({ id: Schema.Number })
const Count = Schema.Struct({ analysed: Schema.Number })
const Total = Schema.Struct({ total: Schema.Number })

/**
 * Up to `limit` due jobs not held by a live lease, oldest due first (`analysis_jobs_due` in its order),
 * locked with `FOR UPDATE SKIP LOCKED` and given the lease. Exported for the test that checks the plan.
 */
export const claimStatement = (
  sql: SqlClient.SqlClient,
  now: Date,
  leaseUntil: Date,
  lease: string,
  limit: number
) => sql`
  WITH due AS (
    SELECT id FROM analysis_jobs
    WHERE next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
    ORDER BY next_attempt_at, id
    LIMIT ${Math.floor(limit)}
    FOR UPDATE SKIP LOCKED
  ), taken AS (
    UPDATE analysis_jobs j SET lease = ${lease}, lease_until = ${leaseUntil}
    FROM due WHERE j.id = due.id
    RETURNING j.*
  )
  SELECT * FROM taken ORDER BY next_attempt_at, id`

/**
 * The analysis queue in PostgreSQL (`analysis_jobs`, version 10), shared by every server over the database.
 *
 * - `enqueue` is one statement for the batch. A run's `call_analysis` job is added only by the statement
 *   that turns its run's `analysis_job_added` from false to true (the run's row lock orders two enqueues
 *   of one run: the second finds it true), so a run is given one job ever, also after its job finished
 *   and left the table; the unique `run_id` holds it besides. An agent's `improvement_suggestions` job is
 *   kept one at a time by a partial unique index (`ON CONFLICT DO NOTHING`). A job whose run is not of its
 *   organization and agent, or whose agent is not of its organization, is not added.
 * - `claim` is one statement: it locks the due jobs it takes with `FOR UPDATE SKIP LOCKED` and gives them
 *   its lease, so two claims at once (in any processes) never take one job; a job another claim has just
 *   taken no longer passes the lease condition when it is re-checked. It reads `analysis_jobs_due` in order.
 * - `complete`, `retry` and `release` write only where the job's lease is still the claim's.
 * - `countAnalysed` is one upsert on the agent's row of `agent_analysis_counts` (not a column of
 *   `agents`, whose every update is announced to every server's lookup cache and waits for the agent's
 *   edits).
 * - A run's job goes with the run (ON DELETE CASCADE).
 */
export const layer: Layer.Layer<AnalysisJobStore, never, SqlClient.SqlClient> = Layer.effect(
  AnalysisJobStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return AnalysisJobStore.of({
      enqueue: (jobs, now) =>
        jobs.length === 0
          ? Effect.void
          : Rows.execute(sql`
              WITH v AS (
                SELECT * FROM ${Batches.recordset(
                  sql,
                  jobs.map(({ agent_id, kind, organization_id, run_id }) => ({
                    organization_id,
                    kind,
                    run_id,
                    agent_id
                  })),
                  "v",
                  "organization_id bigint, kind text, run_id bigint, agent_id bigint"
                )}
              ), marked AS (
                UPDATE runs r SET analysis_job_added = true
                FROM v
                WHERE v.kind = 'call_analysis' AND r.organization_id = v.organization_id
                  AND r.workflow_run_id = v.run_id AND r.workflow_id = v.agent_id AND NOT r.analysis_job_added
                RETURNING r.organization_id, r.workflow_run_id, r.workflow_id
              )
              INSERT INTO analysis_jobs (organization_id, kind, run_id, agent_id, next_attempt_at, created_at)
              SELECT organization_id, 'call_analysis', workflow_run_id, workflow_id, ${now}::timestamptz, ${now}::timestamptz
              FROM marked
              UNION ALL
              SELECT v.organization_id, 'improvement_suggestions', NULL, v.agent_id, ${now}::timestamptz,
                ${now}::timestamptz
              FROM v JOIN agents a ON a.organization_id = v.organization_id AND a.id = v.agent_id
              WHERE v.kind = 'improvement_suggestions'
              ON CONFLICT (organization_id, agent_id) WHERE kind = 'improvement_suggestions' DO NOTHING`),
      claim: (now, leaseUntil, lease, limit) =>
        limit <= 0
          ? Effect.succeed([])
          : Rows.all(ClaimedRow)(claimStatement(sql, now, leaseUntil, lease, limit)),
      complete: (claim) =>
        Rows.all(Found)(
          sql`
          DELETE FROM analysis_jobs
          WHERE id = ${claim.id} AND organization_id = ${claim.organization_id} AND lease = ${claim.lease}
          RETURNING id`
        ).pipe(Effect.map((rows) => rows.length > 0)),
      retry: (claim, nextAttemptAt, error) =>
        Rows.all(Found)(
          sql`
          UPDATE analysis_jobs SET attempts = attempts + 1, next_attempt_at = ${nextAttemptAt},
            last_error = ${error}, lease = NULL, lease_until = NULL
          WHERE id = ${claim.id} AND organization_id = ${claim.organization_id} AND lease = ${claim.lease}
          RETURNING id`
        ).pipe(Effect.map((rows) => rows.length > 0)),
      release: (claim) =>
        Rows.all(Found)(
          sql`
          UPDATE analysis_jobs SET lease = NULL, lease_until = NULL
          WHERE id = ${claim.id} AND organization_id = ${claim.organization_id} AND lease = ${claim.lease}
          RETURNING id`
        ).pipe(Effect.map((rows) => rows.length > 0)),
      countAnalysed: (organizationId, agentId) =>
        Rows.first(Count)(
          sql`
          INSERT INTO agent_analysis_counts (organization_id, agent_id, analysed)
          SELECT organization_id, id, 1 FROM agents WHERE organization_id = ${organizationId} AND id = ${agentId}
          ON CONFLICT (organization_id, agent_id)
            DO UPDATE SET analysed = agent_analysis_counts.analysed + 1
          RETURNING analysed`
        ).pipe(
          // an agent not of the organization counts nothing
          Effect.map(Option.match({ onNone: () => 0, onSome: (row) => row.analysed }))
        ),
      waiting: Rows.single(Total)(sql`SELECT count(*)::int8 AS total FROM analysis_jobs`).pipe(
        Effect.map((row) => row.total)
      )
    })
  })
)
