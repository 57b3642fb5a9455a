import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import * as Page from "../../src/pagination/Page.js"

describe("Page", () => {
  it("slices a page and reports totals", () => {
    const items = Array.from({ length: 7 }, (_, i) => i)
    expect(Page.slice(items, { page: 2, limit: 3 })).toEqual({
      items: [3, 4, 5],
      total_count: 7,
      total_pages: 3,
      page: 2,
      limit: 3
    })
    expect(Page.slice(items, { page: 9, limit: 3 }).items).toEqual([])
    expect(Page.slice([], { page: 1, limit: 50 }).total_pages).toBe(0)
  })

  it("accepts page >= 1 and limit 1..100 only", () => {
    const decode = Schema.decodeUnknownEither(Page.PageRequest)
    expect(Either.isRight(decode({ page: 1, limit: 100 }))).toBe(true)
    for (const bad of [
      { page: 0, limit: 1 },
      { page: 1, limit: 0 },
      { page: 1, limit: 101 },
      { page: 1.5, limit: 2 }
    ]) {
      expect(Either.isLeft(decode(bad))).toBe(true)
    }
  })

  it.prop(
    "pages partition the list: concatenating every page gives the list back",
    [FastCheck.array(FastCheck.integer(), { maxLength: 300 }), FastCheck.integer({ min: 1, max: 100 })],
    ([items, limit]) => {
      const first = Page.slice(items, { page: 1, limit })
      expect(first.total_pages).toBe(Math.ceil(items.length / limit))
      const all = Array.from(
        { length: first.total_pages },
        (_, i) => Page.slice(items, { page: i + 1, limit }).items
      ).flat()
      expect(all).toEqual(items)
    }
  )
})
