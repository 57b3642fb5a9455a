import { type RunListing, RunSummary } from "@voice-agent-platform/core/runs/Run.js"
import { Schema } from "effect"

/**
 * Reading the runs list's rows without the schema walk.
 *
 * Every other read decodes its rows with the record's schema (`Rows`); the list is the hot read (50 runs
 * a page, two free-form contexts each), and its rows are trusted: every column is constrained by the
 * table (ids `bigint`, `mode` and `status` by CHECKs, contexts jsonb objects, `duration_seconds` a
 * non-negative integer). The database hands the page over as one JSON array (`json_agg`), which the
 * driver parses once (`JSON.parse`, as it parses every jsonb column: the contexts come out exactly as a
 * row-by-row read gave them), and the mapping does by hand what the schema did beyond checking:
 *
 * - instants come as epoch milliseconds (floored, exactly as the driver's date parsing truncates
 *   microseconds) and become Dates with `new Date(ms)`, with no timestamp text parsed;
 * - an id past 2^53 is refused, as the driver's `int8` parser refuses it (`parseInt8`);
 * - a context holding an own `__proto__` key (an imported contact's column may be named so) is decoded
 *   with the schema, which drops that key, so that the answer is the one the schema gave.
 *
 * A property test over generated runs, on PGlite and on PostgreSQL, holds the list's answer byte for byte
 * equal to the schema-decoded runs' (packages/http/test/conversations/RunListRows.test.ts).
 */

/** Epoch milliseconds of an instant column, floored, as an integer (exact: below 2^53). */
const epochMillis = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::int8`

/** The summary's fields of the run aliased `r`, as `json_build_object` arguments. */
const summaryFields = `'workflow_run_id', r.workflow_run_id,
  'workflow_id', r.workflow_id,
  'organization_id', r.organization_id,
  'mode', r.mode,
  'status', r.status,
  'initial_context', r.initial_context,
  'gathered_context', r.gathered_context,
  'duration_seconds', r.duration_seconds,
  'created_at', ${epochMillis("r.created_at")},
  'ended_at', ${epochMillis("r.ended_at")}`

/** The array's order: the page's, newest first (ties: the higher id first). */
const pageOrder = "ORDER BY p.created_at DESC, p.workflow_run_id DESC"

/**
 * The page's runs as one JSON array, newest first (ties: the higher id first), from the run table
 * aliased `r` joined to the page's ids and instants aliased `p`; null when the page is empty.
 */
export const pageArray = `json_agg(json_build_object(
  ${summaryFields}
) ${pageOrder}) AS items`

/** What joins a page's runs to its ids. */
export const pageJoins = "JOIN runs r USING (workflow_run_id)"

/**
 * The page of the list across agents as one JSON array: each run's summary, number and disposition, and
 * its agent's public id and name (the agent aliased `a`); null when the page is empty.
 */
export const listingArray = `json_agg(json_build_object(
  ${summaryFields},
  'phone_number', r.phone_number,
  'disposition', r.disposition,
  'agent_public_id', a.public_id,
  'agent_name', a.name
) ${pageOrder}) AS items`

/** What joins a page of the list across agents to its ids: the runs, and their agents. */
export const listingJoins = "JOIN runs r USING (workflow_run_id) JOIN agents a ON a.id = r.workflow_id"

/** An instant column as JavaScript's `toISOString` writes it (UTC, milliseconds truncated as above). */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A context column as the schema decodes it: without an own `__proto__` key (see `context` below). */
const contextValue = (column: string) =>
  `CASE WHEN ${column} ? '__proto__' THEN ${column} - '__proto__' ELSE ${column} END`

/**
 * The page's runs as the JSON text the API answers (`RunSummaryJson`: the summary's fields but the
 * organization, in the answer's order, instants as ISO text), written by the database: one text value
 * that is neither parsed nor written again on its way to the client (`'[]'` for an empty page). The
 * objects are `row_to_json`'s (no spaces); a context is written as the database keeps it (jsonb's text: a
 * space after each `:` and `,`, numbers exactly as stored), which parses to the same value.
 */
export const pageEncoded = `coalesce('[' || string_agg(row_to_json(j)::text, ',' ${pageOrder}) || ']', '[]') AS items`

/** What joins a page's runs to its ids, and names the encoded summary's fields (`j`). */
export const pageEncodedJoins = `${pageJoins} CROSS JOIN LATERAL (SELECT
  r.workflow_run_id,
  r.workflow_id,
  r.mode,
  r.status,
  ${contextValue("r.initial_context")} AS initial_context,
  ${contextValue("r.gathered_context")} AS gathered_context,
  r.duration_seconds,
  ${isoText("r.created_at")} AS created_at,
  ${isoText("r.ended_at")} AS ended_at
) j`

/** The encoded page's text as the driver hands it over; `[]` for a page past the end. */
export const encodedOf = (items: string | null): string => items ?? "[]"

/** One run of the array. */
export interface Item {
  readonly workflow_run_id: number
  readonly workflow_id: number
  readonly organization_id: number
  readonly mode: string
  readonly status: string
  readonly initial_context: object
  readonly gathered_context: object
  readonly duration_seconds: number | null
  readonly created_at: number
  readonly ended_at: number | null
}

/** One run of the listing array. */
export interface ListingItem extends Item {
  readonly phone_number: string | null
  readonly disposition: string | null
  readonly agent_public_id: string
  readonly agent_name: string
}

/** The array as the driver hands it over (parsed), or null for an empty page. */
export type PageItems = ReadonlyArray<Item> | null

type Context = RunSummary["initial_context"]

const decodeContext = Schema.decodeUnknownSync(RunSummary.fields.initial_context)

/** The context as the schema decodes it: the same object unless it holds an own `__proto__` key. */
const context = (value: Context): Context =>
  Object.prototype.hasOwnProperty.call(value, "__proto__") ? decodeContext(value) : value

const id = (value: number): number => {
  if (!Number.isSafeInteger(value)) throw new RangeError(`id ${value} is not a safe integer`)
  return value
}

/** One run of the array as the run summary the schema would have decoded. */
const summaryOf = (item: Item): RunSummary => ({
  workflow_run_id: id(item.workflow_run_id) as RunSummary["workflow_run_id"],
  workflow_id: id(item.workflow_id) as RunSummary["workflow_id"],
  organization_id: id(item.organization_id) as RunSummary["organization_id"],
  mode: item.mode as RunSummary["mode"],
  status: item.status as RunSummary["status"],
  initial_context: context(item.initial_context as Context),
  gathered_context: context(item.gathered_context as Context),
  duration_seconds: item.duration_seconds,
  created_at: new Date(item.created_at),
  ended_at: item.ended_at === null ? null : new Date(item.ended_at)
})

/** The page's runs as the schema would have decoded them. */
export const summariesOf = (items: PageItems): Array<RunSummary> =>
  items === null ? [] : items.map(summaryOf)

/** The listing array's runs as the schema would have decoded them. */
export const listingsOf = (items: ReadonlyArray<ListingItem> | null): Array<RunListing> =>
  items === null
    ? []
    : items.map((item) => ({
        ...summaryOf(item),
        phone_number: item.phone_number,
        disposition: item.disposition,
        agent_public_id: item.agent_public_id as RunListing["agent_public_id"],
        agent_name: item.agent_name
      }))
