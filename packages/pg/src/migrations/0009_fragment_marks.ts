import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 9: a run says whether its call kept transcript fragments, so that a call's end reads them only
 * then (most calls of a campaign keep none: a statement a call's end saved).
 *
 * - `runs.fragments_kept` is set by the statement that appends a fragment (`call_fragments`) to the run of
 *   the same organization, and never unset; a new run has it false (a column default: no table rewrite).
 * - Runs holding fragments when this version runs (live calls) are marked, so their ends still read them.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE runs ADD COLUMN fragments_kept boolean NOT NULL DEFAULT false`,
  `UPDATE runs r SET fragments_kept = true
    WHERE EXISTS (
      SELECT 1 FROM call_fragments f WHERE f.run_id = r.workflow_run_id AND f.organization_id = r.organization_id)`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
