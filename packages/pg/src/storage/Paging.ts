import type { SqlClient, SqlError, Statement } from "@effect/sql"
import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import { Effect, Schema } from "effect"
import * as Rows from "./Rows.js"

/** The row of `SELECT count(*)::int8 AS total`: how many rows a list (or a limit) counts. */
export const Count = Schema.Struct({ total: Schema.Number })

/** `LIMIT` and `OFFSET` of the page a caller asked for. */
export const window = (request: Page.PageRequest) => ({ limit: request.limit, offset: Page.offset(request) })

/**
 * One page of a list: the page's rows and the list's total (a `Count` row), read by two queries. Inside a
 * transaction both see the same snapshot only under REPEATABLE READ; outside, a row written between them
 * may be counted and not shown (or the reverse), as with any offset pagination.
 */
export const page = <A>(
  count: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>,
  items: Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>,
  request: Page.PageRequest
): Effect.Effect<Page.Page<A>> =>
  Effect.all([items, Rows.all(Count)(count)]).pipe(
    Effect.map(([rows, [total]]) => Page.make(rows, total?.total ?? 0, request)),
    Effect.orDie
  )

/**
 * A list of one table's rows read by offset: the table and the rows' order (SQL, ending in a unique column
 * so that rows with equal keys keep one order from page to page).
 */
export interface OffsetList {
  readonly table: string
  readonly orderBy: string
}

/**
 * A store's list of `list.table`, made once: given which rows (`where`) and a page, it reads
 * `SELECT * FROM table WHERE where ORDER BY orderBy LIMIT … OFFSET …`, its rows read by `rows` (the
 * record's decoder, after opening any sealed column), and the total counted over the same `where` (see
 * `page`).
 */
export const list =
  <A>(
    sql: SqlClient.SqlClient,
    list: OffsetList,
    rows: (
      query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, SqlError.SqlError>
    ) => Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
  ) =>
  (where: Statement.Fragment, request: Page.PageRequest): Effect.Effect<Page.Page<A>> => {
    const { limit, offset } = window(request)
    return page(
      sql`SELECT count(*)::int8 AS total FROM ${sql(list.table)} WHERE ${where}`,
      rows(sql`
        SELECT * FROM ${sql(list.table)} WHERE ${where}
        ORDER BY ${sql.literal(list.orderBy)} LIMIT ${limit} OFFSET ${offset}`),
      request
    )
  }
