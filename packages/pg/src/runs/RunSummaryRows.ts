import { RunSummary } from "@voice-agent-platform/core/runs/Run.js"
import { Schema } from "effect"

/**
 * Reading the runs list's rows without the schema walk.
 *
 * Every other read decodes its rows with the record's schema (`Rows`); the list is the hot read (50 runs
 * a page, two free-form contexts each), and its rows are trusted: every column is constrained by the
 * table (ids `bigint` read as safe integers by the driver, `mode` and `status` by CHECKs, contexts jsonb
 * objects, `duration_seconds` a non-negative integer). What the schema did beyond checking, the mapping
 * does by hand:
 *
 * - instants come from the database as epoch milliseconds (`float8`, floored exactly as the driver's
 *   date parsing truncates microseconds) and become Dates with `new Date(ms)`, without the driver parsing
 *   timestamp text;
 * - a context holding an own `__proto__` key (an imported contact's column may be named so) is decoded
 *   with the schema, which drops that key, so that the answer is the one the schema gave.
 *
 * A property test over generated runs, on PGlite and on PostgreSQL, holds the list's answer byte for byte
 * equal to the schema-decoded rows' (packages/http/test/RunListRows.test.ts).
 */

/** A column of epoch milliseconds for an instant column, as `float8` (exact: below 2^53). */
const epochMillis = (column: string, name: string) =>
  `floor(extract(epoch FROM ${column}) * 1000)::float8 AS ${name}`

/** The columns a page of the runs list reads from the run table aliased `r` (`RunSummary`'s fields). */
export const listColumns = [
  "r.workflow_run_id",
  "r.workflow_id",
  "r.organization_id",
  "r.mode",
  "r.status",
  "r.initial_context",
  "r.gathered_context",
  "r.duration_seconds",
  epochMillis("r.created_at", "created_at"),
  epochMillis("r.ended_at", "ended_at")
].join(", ")

/** The same column names, for a query that selects them from a subquery aliased `r`. */
export const listColumnNames = Object.keys(RunSummary.fields)
  .map((column) => `r.${column}`)
  .join(", ")

type Context = RunSummary["initial_context"]

const decodeContext = Schema.decodeUnknownSync(RunSummary.fields.initial_context)

/** The context as the schema decodes it: the same object unless it holds an own `__proto__` key. */
const context = (value: Context): Context =>
  Object.prototype.hasOwnProperty.call(value, "__proto__") ? decodeContext(value) : value

/** One row of the list's columns as the run summary the schema would have decoded. */
export const summaryOf = (row: Record<string, unknown>): RunSummary => {
  const endedAt = row.ended_at as number | null
  return {
    workflow_run_id: row.workflow_run_id as RunSummary["workflow_run_id"],
    workflow_id: row.workflow_id as RunSummary["workflow_id"],
    organization_id: row.organization_id as RunSummary["organization_id"],
    mode: row.mode as RunSummary["mode"],
    status: row.status as RunSummary["status"],
    initial_context: context(row.initial_context as Context),
    gathered_context: context(row.gathered_context as Context),
    duration_seconds: row.duration_seconds as number | null,
    created_at: new Date(row.created_at as number),
    ended_at: endedAt === null ? null : new Date(endedAt)
  }
}
