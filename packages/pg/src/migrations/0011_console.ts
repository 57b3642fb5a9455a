import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomIdTables, randomRowIdFunction } from "./0004_tenancy.js"

/**
 * Version 11: what the console needs (issue 25).
 *
 * - Organizations manage their own API keys now, so key ids are shown to tenants: they are drawn at
 *   random as version 4 does for the other ids tenants see (`random_row_id` learns the table); keys stored
 *   before keep their ids. Lists go newest first by `created_at`, with an index to match.
 * - A key has a `name` (1..100 characters); keys stored before are named "Key " and their prefix, as keys
 *   made without a name are (`ApiKey.defaultName`). The table holds an organization's keys only, so
 *   filling the column rewrites few rows.
 * - A key has a `last_used_at`, written at most once a minute per key (`ApiKeyUse`). The lookup trigger of
 *   version 7 now fires on changes to every other column only: recording a use must not empty every
 *   server's lookup cache for the organization once a minute per key. A later column the key lookup reads
 *   must be added to its list.
 * - Runs are listed across agents (`GET /runs`) and both lists filter by number, disposition and mode.
 *   Every agent's runs newest first need an index of their own (`runs_by_organization`: without it a page
 *   sorts all the organization's runs); status and mode ride along, so those filters and their counts are
 *   read from it alone. A number and a disposition each have a partial index in the list's order (the
 *   rows without one are left out), so a filter by either reads its matches only. The disposition is
 *   written once, by the analysis after the run's end, so its index costs one entry per analysed run; the
 *   number's costs one per run write, as every index of `runs` does. Each is built in the migration's
 *   transaction: writes to `runs` wait while it is built (about a second per million runs).
 */
export const statements: ReadonlyArray<string> = [
  randomRowIdFunction("CREATE OR REPLACE", [
    ...randomIdTables,
    ["campaign_contacts", "id"],
    ["api_keys", "id"]
  ]),
  `ALTER TABLE api_keys ALTER COLUMN id DROP IDENTITY`,
  `ALTER TABLE api_keys ALTER COLUMN id SET DEFAULT random_row_id('api_keys')`,
  `ALTER TABLE api_keys ADD COLUMN name text, ADD COLUMN last_used_at timestamptz`,
  `UPDATE api_keys SET name = 'Key ' || key_prefix`,
  `ALTER TABLE api_keys ALTER COLUMN name SET NOT NULL`,
  `ALTER TABLE api_keys ADD CONSTRAINT api_keys_name_check CHECK (char_length(name) BETWEEN 1 AND 100)`,
  `DROP INDEX api_keys_by_organization`,
  `CREATE INDEX api_keys_by_organization ON api_keys (organization_id, created_at DESC, id DESC)`,
  `DROP TRIGGER api_keys_lookups_changed ON api_keys`,
  `CREATE TRIGGER api_keys_lookups_changed
    AFTER UPDATE OF id, organization_id, key_hash, key_prefix, name, created_at, revoked_at OR DELETE
    ON api_keys FOR EACH ROW EXECUTE FUNCTION lookups_changed()`,
  `CREATE INDEX runs_by_organization ON runs (organization_id, created_at DESC, workflow_run_id DESC)
    INCLUDE (status, mode)`,
  `CREATE INDEX runs_by_phone_number ON runs (organization_id, phone_number, created_at DESC, workflow_run_id DESC)
    WHERE phone_number IS NOT NULL`,
  `CREATE INDEX runs_by_disposition ON runs (organization_id, disposition, created_at DESC, workflow_run_id DESC)
    WHERE disposition IS NOT NULL`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
