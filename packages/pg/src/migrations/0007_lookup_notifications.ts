import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 7: the database announces every change to what servers keep in memory (`LookupCache`: API keys
 * by hash, agents by id, with their organization). Row triggers on `api_keys`, `agents` and
 * `organizations` send the organization's id on the channel `vap_lookups` (`pg_notify`, delivered to
 * every listening server when the transaction commits, never when it rolls back; equal payloads of one
 * transaction are sent once); a TRUNCATE of any of them sends `*`. Inserts are not announced: nothing
 * missing is kept.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE FUNCTION lookups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
      PERFORM pg_notify('vap_lookups', '*');
    ELSIF TG_TABLE_NAME = 'organizations' THEN
      PERFORM pg_notify('vap_lookups', OLD.id::text);
    ELSE
      PERFORM pg_notify('vap_lookups', OLD.organization_id::text);
    END IF;
    RETURN NULL;
  END $$`,
  ...["api_keys", "agents", "organizations"].flatMap((table) => [
    `CREATE TRIGGER ${table}_lookups_changed AFTER UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION lookups_changed()`,
    `CREATE TRIGGER ${table}_lookups_truncated AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION lookups_changed()`
  ])
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
