import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 9: a run says whether its call kept transcript fragments, so that a call's end reads them only
 * then (most calls of a campaign keep none: a statement a call's end saved).
 *
 * - `runs.fragments_kept` is set by a row trigger on every insert into `call_fragments` (on the run of the
 *   same organization; once: a run already marked is not updated again), and never unset; a new run has it
 *   false (a column default: no table rewrite). A trigger rather than the appending statement, so that a
 *   server of version 8 still running during a rolling upgrade (its appends do not mark) marks too: a
 *   newer server's call end then still reads, and clears, the fragments it kept.
 * - Runs holding fragments when this version runs (live calls) are marked, so their ends still read them.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE runs ADD COLUMN fragments_kept boolean NOT NULL DEFAULT false`,
  `CREATE FUNCTION call_fragments_mark_run() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE runs SET fragments_kept = true
      WHERE organization_id = NEW.organization_id AND workflow_run_id = NEW.run_id AND NOT fragments_kept;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER call_fragments_mark_run AFTER INSERT ON call_fragments
    FOR EACH ROW EXECUTE FUNCTION call_fragments_mark_run()`,
  `UPDATE runs r SET fragments_kept = true
    WHERE EXISTS (
      SELECT 1 FROM call_fragments f WHERE f.run_id = r.workflow_run_id AND f.organization_id = r.organization_id)`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
