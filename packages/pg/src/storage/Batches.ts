import type { SqlClient, Statement } from "@effect/sql"

/**
 * A batch of rows as a table of a statement: `jsonb_to_recordset(<the rows>) AS <alias>(<columns>)`, the
 * rows passed as ONE jsonb parameter whatever their number. The statement's text, hence its prepared plan,
 * is the same for every batch size, and a batch never nears PostgreSQL's 65,535 parameters. `columns` are
 * written with their SQL types (`id bigint, ended_at timestamptz`), which must match the table written or
 * compared with: jsonb holds numbers, strings and booleans only, so each value is read as its column's
 * type from there (a Date is serialised as its ISO string, which `timestamptz` reads exactly).
 */
export const recordset = (
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<object>,
  alias: string,
  columns: string
): Statement.Fragment =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS ${sql.literal(`${alias} (${columns})`)}`
