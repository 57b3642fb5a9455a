import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 2: each agent's number of runs, kept by the database itself. Every list of an agent's runs
 * answers its `total_count`; counting a million index entries costs ~30 ms a request, reading one row
 * costs nothing. Statement-level triggers keep the count in the same transaction as the inserts and
 * deletes (one update per statement, however many rows it writes; a TRUNCATE clears them), so no code
 * path can forget it and a rolled-back insert is never counted. A run never changes its organization
 * or its agent.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE run_counts (
    organization_id bigint NOT NULL REFERENCES organizations (id),
    workflow_id bigint NOT NULL,
    total bigint NOT NULL CHECK (total >= 0),
    PRIMARY KEY (organization_id, workflow_id)
  )`,
  `CREATE FUNCTION run_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO run_counts (organization_id, workflow_id, total)
    SELECT organization_id, workflow_id, count(*) FROM inserted
    GROUP BY organization_id, workflow_id ORDER BY organization_id, workflow_id
    ON CONFLICT (organization_id, workflow_id) DO UPDATE SET total = run_counts.total + excluded.total;
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION run_counts_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- the counts' rows are locked in key order first, as inserts do, so that two statements deleting
    -- runs of several agents cannot deadlock
    PERFORM 1 FROM run_counts c
    WHERE (c.organization_id, c.workflow_id) IN (SELECT organization_id, workflow_id FROM deleted)
    ORDER BY c.organization_id, c.workflow_id FOR UPDATE;
    UPDATE run_counts c SET total = c.total - d.removed
    FROM (
      SELECT organization_id, workflow_id, count(*) AS removed FROM deleted
      GROUP BY organization_id, workflow_id
    ) d
    WHERE c.organization_id = d.organization_id AND c.workflow_id = d.workflow_id;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER runs_counted_on_insert AFTER INSERT ON runs
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION run_counts_add()`,
  `CREATE TRIGGER runs_counted_on_delete AFTER DELETE ON runs
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION run_counts_subtract()`,
  `CREATE FUNCTION run_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM run_counts;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER runs_counted_on_truncate AFTER TRUNCATE ON runs
    FOR EACH STATEMENT EXECUTE FUNCTION run_counts_clear()`,
  // The runs written before this version.
  `INSERT INTO run_counts (organization_id, workflow_id, total)
    SELECT organization_id, workflow_id, count(*) FROM runs GROUP BY organization_id, workflow_id`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
