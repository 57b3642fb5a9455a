import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The tables whose integer ids tenants see, with their key column. Their ids were drawn from sequences
 * shared by every organization, so a tenant could read the others' volume from the gaps between its own
 * ids. API keys (seen by operators only), call fragments and campaign contacts (never shown, ordered by
 * id) keep their sequences (version 6 draws contact ids too).
 */
export const randomIdTables: ReadonlyArray<readonly [table: string, column: string]> = [
  ["organizations", "id"],
  ["agents", "id"],
  ["agent_definitions", "id"],
  ["runs", "workflow_run_id"],
  ["documents", "id"],
  ["improvements", "id"],
  ["tools", "id"],
  ["phone_numbers", "id"],
  ["number_requests", "id"],
  ["usage_records", "id"],
  ["campaigns", "id"]
]

/** The columns holding sealed values, whose checks allowed only the unbound scheme (`v1:`). */
const sealedChecks: ReadonlyArray<readonly [table: string, column: string]> = [
  ["credentials", "secret"],
  ["tools", "definition"],
  ["webhook_endpoints", "secret"],
  ["integration_connections", "config"]
]

/**
 * `random_row_id(table)`, which knows the tables given (a table it does not know is an error). Later
 * versions that add a table redefine it (`CREATE OR REPLACE`) with the tables before theirs.
 */
export const randomRowIdFunction = (
  create: "CREATE" | "CREATE OR REPLACE",
  tables: ReadonlyArray<readonly [table: string, column: string]>
): string => `${create} FUNCTION random_row_id(target text) RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    candidate bigint;
  BEGIN
    LOOP
      candidate := (floor(random() * 67108864)::bigint << 27) | floor(random() * 134217728)::bigint;
      CONTINUE WHEN candidate = 0;
      CASE target
        ${tables
          .map(
            ([table, column]) =>
              `WHEN '${table}' THEN CONTINUE WHEN EXISTS (SELECT 1 FROM ${table} WHERE ${column} = candidate);`
          )
          .join("\n        ")}
      END CASE;
      RETURN candidate;
    END LOOP;
  END $$`

/**
 * Version 4, nothing crosses tenants. Ids are drawn at random from 1..2^53−1 (as `RandomIds` in core
 * does for the in-memory store), not from shared sequences: `random_row_id(table)` draws 53 bits (two
 * `random()` draws, each carries 52) and draws again while the id is taken, so an insert never meets a
 * duplicate key but by a race between two draws of the same number (about one chance in 10^9 per insert
 * with ten million rows), which the primary key still refuses. One static query per table, so that its
 * plan is cached: a bulk insert pays ~25 µs a row (~65 µs with a dynamic query). Rows written before keep
 * their ids. Inventory numbers were handed out in id order; they now go oldest first by `created_at`
 * (then id), with an index to match. Sealed columns also accept values sealed to their rows (`v2:`, see
 * `SecretBox`); the server re-seals the older `v1:` values when it starts (`SealedColumns.resealUnbound`:
 * the key is not the database's to know, so SQL cannot).
 */
export const statements: ReadonlyArray<string> = [
  randomRowIdFunction("CREATE", randomIdTables),
  ...randomIdTables.flatMap(([table, column]) => [
    `ALTER TABLE ${table} ALTER COLUMN ${column} DROP IDENTITY`,
    `ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT random_row_id('${table}')`
  ]),
  ...sealedChecks.flatMap(([table, column]) => [
    `ALTER TABLE ${table} DROP CONSTRAINT ${table}_${column}_check`,
    `ALTER TABLE ${table} ADD CONSTRAINT ${table}_${column}_check CHECK (${column} LIKE 'v1:%' OR ${column} LIKE 'v2:%')`
  ]),
  `DROP INDEX phone_numbers_available`,
  `CREATE INDEX phone_numbers_available ON phone_numbers (number_type, created_at, id) WHERE status = 'available'`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
