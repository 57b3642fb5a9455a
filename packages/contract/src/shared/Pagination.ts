import * as Page from "@voice-agent-platform/core/pagination/Page.js"
import { Schema } from "effect"
import { CanonicalInt, documentedAsInteger } from "./Ids.js"

/** `page` (>= 1, default 1) and `limit` (1..100, default 50): the query of every list. */
export const PageParams = {
  page: Schema.optionalWith(
    CanonicalInt.pipe(Schema.greaterThanOrEqualTo(1)).annotations(
      documentedAsInteger({ minimum: 1, default: 1 })
    ),
    {
      default: () => 1,
      exact: true
    }
  ).annotations({
    description: "Page number, from 1"
  }),
  limit: Schema.optionalWith(
    CanonicalInt.pipe(Schema.between(1, Page.maxLimit)).annotations(
      documentedAsInteger({ minimum: 1, maximum: Page.maxLimit, default: Page.defaultLimit })
    ),
    {
      default: () => Page.defaultLimit,
      exact: true
    }
  ).annotations({ description: `Items per page, 1..${Page.maxLimit}` })
}

/** The query of a list with no other filter. */
export const PageQuery = Schema.Struct(PageParams)

/** A list response: `{items, total_count, total_pages, page, limit}`. */
export const PageOf = <S extends Schema.Schema.Any>(item: S, identifier: string) =>
  Schema.Struct({
    items: Schema.Array(item),
    total_count: Schema.Int,
    total_pages: Schema.Int,
    page: Schema.Int,
    limit: Schema.Int
  }).annotations({ identifier })

/** A page of domain records rendered with `f`. */
export const render = <A, B>(page: Page.Page<A>, f: (a: A) => B) => Page.map(page, f)
