import type { PageRequest } from "./Page.js"
import { totalPages } from "./Page.js"

/**
 * One page of a list whose items are already written as JSON: `items` is the JSON text of the page's
 * items array, as the API answers it (a store that can write it, the database, hands it over so, and
 * nothing parses it or writes it again). The totals are a `Page`'s.
 */
export interface EncodedPage {
  readonly items: string
  readonly total_count: number
  readonly total_pages: number
  readonly page: number
  readonly limit: number
}

/** An encoded page from the JSON text of its items and the list's total count. */
export const make = (items: string, totalCount: number, request: PageRequest): EncodedPage => ({
  items,
  total_count: totalCount,
  total_pages: totalPages(totalCount, request.limit),
  page: request.page,
  limit: request.limit
})

/** The page as the JSON text of a list's answer: the items, then the totals, as `PageOf` encodes them. */
export const json = (page: EncodedPage): string =>
  `{"items":${page.items},"total_count":${page.total_count},"total_pages":${page.total_pages},"page":${page.page},"limit":${page.limit}}`
