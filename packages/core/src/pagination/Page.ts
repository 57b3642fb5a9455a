import { Schema } from "effect"

/** The largest `limit` a list accepts: bounded so that one request can never read a whole table. */
export const maxLimit = 100

/** The `limit` used when a request names none. */
export const defaultLimit = 50

/** Which page of a list a caller asks for: `page >= 1`, `limit` in 1..100. */
export const PageRequest = Schema.Struct({
  page: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  limit: Schema.Int.pipe(Schema.between(1, maxLimit))
})
export type PageRequest = typeof PageRequest.Type

/** The first page with the default limit. */
export const firstPage: PageRequest = { page: 1, limit: defaultLimit }

/** One page of a list, with the totals every list response carries. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total_count: number
  readonly total_pages: number
  readonly page: number
  readonly limit: number
}

/** The number of pages `totalCount` items fill; 0 for an empty list. */
export const totalPages = (totalCount: number, limit: number): number => Math.ceil(totalCount / limit)

/** Builds a page from the items of that page and the total count; a page past the end is empty. */
export const make = <A>(items: ReadonlyArray<A>, totalCount: number, request: PageRequest): Page<A> => ({
  items,
  total_count: totalCount,
  total_pages: totalPages(totalCount, request.limit),
  page: request.page,
  limit: request.limit
})

/** The offset of the first item of a page. */
export const offset = (request: PageRequest): number => (request.page - 1) * request.limit

/** Cuts one page out of a whole list that is already in display order. */
export const slice = <A>(all: ReadonlyArray<A>, request: PageRequest): Page<A> =>
  make(all.slice(offset(request), offset(request) + request.limit), all.length, request)

/** Changes the items of a page without touching its totals. */
export const map = <A, B>(page: Page<A>, f: (a: A) => B): Page<B> => ({ ...page, items: page.items.map(f) })
