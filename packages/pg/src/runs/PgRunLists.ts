import type { SqlClient, Statement } from "@effect/sql"
import type { AgentId } from "@voice-agent-platform/core/agents/AgentIds.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import type { RunListFilter } from "@voice-agent-platform/core/runs/RunStore.js"
import { Effect, Schema } from "effect"
import * as Paging from "../storage/Paging.js"

/** Pages starting within this many runs of the newest are read in one statement (see `pagedList`). */
export const onePassOffsets = 1000

const decodeTotal = Schema.decodeUnknownSync(Paging.Count)

/** True when the filter narrows the list by nothing but (maybe) its agent. */
export const onlyByAgent = (filter: RunListFilter): boolean =>
  filter.status === undefined &&
  filter.created_after === undefined &&
  filter.created_before === undefined &&
  filter.phone_number === undefined &&
  filter.disposition === undefined &&
  filter.mode === undefined

/**
 * The WHERE of a runs list over the unaliased `runs` columns: the organization, the agent when the filter
 * names one, and each filter given. The indexes it is read with: `runs_by_agent` for an agent's runs,
 * `runs_by_organization` for every agent's (status and mode ride along in both or the latter),
 * `runs_by_phone_number` and `runs_by_disposition` for those filters (version 11; the plans are checked by
 * `RunListPlans.test.ts`).
 */
export const runsWhere = (
  sql: SqlClient.SqlClient,
  organizationId: OrganizationId,
  filter: RunListFilter
): Statement.Fragment =>
  sql.and([
    sql`organization_id = ${organizationId}`,
    ...(filter.agent_id !== undefined ? [sql`workflow_id = ${filter.agent_id}`] : []),
    ...(filter.status !== undefined ? [sql`status = ${filter.status}`] : []),
    ...(filter.created_after !== undefined ? [sql`created_at >= ${filter.created_after}`] : []),
    ...(filter.created_before !== undefined ? [sql`created_at < ${filter.created_before}`] : []),
    ...(filter.phone_number !== undefined ? [sql`phone_number = ${filter.phone_number}`] : []),
    ...(filter.disposition !== undefined ? [sql`disposition = ${filter.disposition}`] : []),
    ...(filter.mode !== undefined ? [sql`mode = ${filter.mode}`] : [])
  ])

/** The runs one agent has, as the database keeps the count (`run_counts`, version 2): one row. */
export const agentTotal = (sql: SqlClient.SqlClient, organizationId: OrganizationId, agentId: AgentId) => sql`
  coalesce(
    (SELECT total FROM run_counts WHERE organization_id = ${organizationId} AND workflow_id = ${agentId}),
    0
  )::int8`

/** The runs the organization has, summed from its agents' kept counts: one row per agent. */
export const organizationTotal = (sql: SqlClient.SqlClient, organizationId: OrganizationId) => sql`
  (SELECT coalesce(sum(total), 0)::int8 FROM run_counts WHERE organization_id = ${organizationId})`

/**
 * The ids and instants of one page of the list, from the index alone (a deep page skips index entries,
 * not rows), newest first (`DESC`) or oldest first (`ASC`). Exported for the plans' test.
 */
export const pageIdsStatement = (
  sql: SqlClient.SqlClient,
  where: Statement.Fragment,
  direction: "ASC" | "DESC",
  take: number,
  skip: number
) => sql`
  SELECT workflow_run_id, created_at FROM runs WHERE ${where}
  ORDER BY created_at ${sql.literal(direction)}, workflow_run_id ${sql.literal(direction)}
  LIMIT ${take} OFFSET ${skip}`

/** How a list turns a page of ids into its answer. */
export interface ListShape<Raw, Items> {
  readonly where: Statement.Fragment
  /** The list's total as the database keeps it (a scalar), when nothing but its scope narrows it; else null. */
  readonly keptTotal: Statement.Fragment | null
  /** The page as one value named `items` (a JSON array, or its text), read from `p` (the page's ids and instants) and what `joins` adds. */
  readonly array: string
  /** Joins the page's runs (`r`, and whatever else the array reads) to `p`. */
  readonly joins: string
  /** The page's items from that value as the driver hands it over (null for a page past the end). */
  readonly decode: (items: Raw | null) => Items
}

/** One page's items and the list's total. */
export interface ListedPage<Items> {
  readonly items: Items
  readonly total: number
}

/**
 * One page of a runs list. The page's ids come from the index alone and only the page's own rows are
 * read, as one value (one row and one field for the driver to read instead of fifty rows of ten). A page
 * nearer the end of the list than its start is found by walking the index from the oldest end, so the
 * last pages cost as little as the first. A page near the start of a list that only its scope narrows
 * (the usual one: the first) is one statement, the kept count and the page together; deeper pages and
 * filtered lists first learn the total (counted over the index), to pick the nearer end.
 */
export const pagedList = <Raw, Items>(
  sql: SqlClient.SqlClient,
  list: ListShape<Raw, Items>,
  page: Page.PageRequest
): Effect.Effect<ListedPage<Items>> => {
  const { limit, offset } = { limit: page.limit, offset: Page.offset(page) }
  const pageItems = (direction: "ASC" | "DESC", take: number, skip: number) => sql<{
    readonly items: Raw | null
  }>`
    SELECT ${sql.literal(list.array)} FROM (${pageIdsStatement(sql, list.where, direction, take, skip)}) p
    ${sql.literal(list.joins)}`
  if (list.keptTotal !== null && offset <= onePassOffsets) {
    return sql<{ readonly total: number; readonly items: Raw | null }>`
      SELECT ${list.keptTotal} AS total, (${pageItems("DESC", limit, offset)}) AS items`.pipe(
      Effect.orDie,
      // Decoding failures are defects, as everywhere in `Rows`.
      Effect.map((rows) => ({ items: list.decode(rows[0]!.items), total: decodeTotal(rows[0]).total }))
    )
  }
  const count =
    list.keptTotal !== null
      ? sql`SELECT ${list.keptTotal} AS total`
      : sql`SELECT count(*)::int8 AS total FROM runs WHERE ${list.where}`
  return count.pipe(
    Effect.orDie,
    Effect.flatMap((rows) => {
      const { total } = decodeTotal(rows[0])
      if (offset >= total) return Effect.succeed({ items: list.decode(null), total })
      const end = Math.min(offset + limit, total)
      const read =
        total - offset < end ? pageItems("ASC", end - offset, total - end) : pageItems("DESC", limit, offset)
      return read.pipe(
        Effect.orDie,
        Effect.map((rows) => ({ items: list.decode(rows[0]!.items), total }))
      )
    })
  )
}
