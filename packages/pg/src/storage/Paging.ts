import type { SqlError } from "@effect/sql"
import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import { Effect } from "effect"

/** `LIMIT` and `OFFSET` of the page a caller asked for. */
export const window = (request: Page.PageRequest) => ({ limit: request.limit, offset: Page.offset(request) })

/**
 * One page of a list: the page's rows and the list's total, read by two queries. Inside a transaction both
 * see the same snapshot only under REPEATABLE READ; outside, a row written between them may be counted and
 * not shown (or the reverse), as with any offset pagination.
 */
export const page = <A>(
  count: Effect.Effect<ReadonlyArray<{ readonly total: number }>, SqlError.SqlError>,
  items: Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>,
  request: Page.PageRequest
): Effect.Effect<Page.Page<A>> =>
  Effect.all([items, count]).pipe(
    Effect.map(([rows, [total]]) => Page.make(rows, total?.total ?? 0, request)),
    Effect.orDie
  )
