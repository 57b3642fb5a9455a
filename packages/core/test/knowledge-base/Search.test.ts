import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { rank, tokenize } from "../../src/knowledge-base/Search.js"

const identity = (text: string) => text
const words = FastCheck.array(
  FastCheck.constantFrom("open", "hours", "parking", "price", "monday", "clinic", "x"),
  {
    maxLength: 12
  }
).map((ws) => ws.join(" "))

describe("Search.tokenize", () => {
  it("lower-cases, drops punctuation and folds diacritics, Polish ł included", () => {
    expect(tokenize("Zażółć GĘŚLĄ jaźń! Łódź, 8:00–17:00 café")).toEqual([
      "zazolc",
      "gesla",
      "jazn",
      "lodz",
      "8",
      "00",
      "17",
      "00",
      "cafe"
    ])
    expect(tokenize(" ,.- ")).toEqual([])
  })
})

describe("Search.rank", () => {
  const chunks = [
    "Our clinic is open Monday to Friday.",
    "Parking is free for patients.",
    "Opening hours: Monday 8:00 to 17:00. On Monday we also open the lab. Monday!",
    "Prices are listed on the website."
  ]

  it("ranks by relevance, best first, leaving out texts that share no term", () => {
    const results = rank("monday hours", chunks, identity, 10)
    expect(results.map((r) => r.item)).toEqual([chunks[2], chunks[0]])
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score)
  })

  it("weighs rare terms above common ones", () => {
    const results = rank("monday parking", chunks, identity, 10)
    expect(results[0]!.item).toBe(chunks[1])
  })

  it("finds text typed without diacritics", () => {
    expect(rank("lodz", ["Biuro w Łodzi", "Oddział Łódź"], identity, 5).map((r) => r.item)).toEqual([
      "Oddział Łódź"
    ])
  })

  it("answers nothing for an empty query, no items or a limit below 1, and at most `limit` results", () => {
    expect(rank("  !? ", chunks, identity, 5)).toEqual([])
    expect(rank("monday", [], identity, 5)).toEqual([])
    expect(rank("monday", chunks, identity, 0)).toEqual([])
    expect(rank("monday", chunks, identity, 1)).toHaveLength(1)
  })

  it("keeps the given order for equal scores", () => {
    const results = rank("same", ["same text", "other", "same text"], (t) => t, 5)
    expect(results.map((r) => r.item)).toEqual(["same text", "same text"])
    expect(results[0]!.score).toBe(results[1]!.score)
    const items = [
      { id: 1, text: "same" },
      { id: 2, text: "same" }
    ]
    expect(rank("same", items, (i) => i.text, 5).map((r) => r.item.id)).toEqual([1, 2])
  })

  it.prop(
    "results are sorted best first, positive, within the limit, and each shares a term with the query",
    [words, FastCheck.array(words, { maxLength: 15 }), FastCheck.integer({ min: 1, max: 20 })],
    ([query, items, limit]) => {
      const results = rank(query, items, identity, limit)
      const queryTerms = new Set(tokenize(query))
      expect(results.length).toBeLessThanOrEqual(limit)
      expect(results.length).toBe(
        Math.min(limit, items.filter((item) => tokenize(item).some((t) => queryTerms.has(t))).length)
      )
      results.forEach((result, i) => {
        expect(result.score).toBeGreaterThan(0)
        if (i > 0) expect(result.score).toBeLessThanOrEqual(results[i - 1]!.score)
        expect(tokenize(result.item).some((t) => queryTerms.has(t))).toBe(true)
      })
    }
  )

  it.prop(
    "an item's score does not depend on the order of the items",
    [
      words,
      FastCheck.array(words, { minLength: 1, maxLength: 10 }).chain((items) =>
        FastCheck.tuple(
          FastCheck.constant(items),
          FastCheck.shuffledSubarray(
            items.map((_, i) => i),
            {
              minLength: items.length,
              maxLength: items.length
            }
          )
        )
      )
    ],
    ([query, [items, order]]) => {
      const indexed = items.map((text, id) => ({ id, text }))
      const scores = (list: ReadonlyArray<{ id: number; text: string }>) =>
        new Map(rank(query, list, (i) => i.text, 100).map((r) => [r.item.id, r.score]))
      const a = scores(indexed)
      const b = scores(order.map((i) => indexed[i]!))
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort())
      for (const [id, score] of a) expect(b.get(id)).toBeCloseTo(score, 10)
    }
  )

  it.prop(
    "more occurrences of a query term in a text of the same length score higher",
    [FastCheck.integer({ min: 1, max: 5 }), FastCheck.integer({ min: 1, max: 5 })],
    ([fewer, extra]) => {
      const text = (n: number) => [...Array(n).fill("parking"), ...Array(20 - n).fill("filler")].join(" ")
      const results = rank("parking", [text(fewer), text(fewer + extra), "unrelated words"], identity, 5)
      expect(results.map((r) => r.item)).toEqual([text(fewer + extra), text(fewer)])
    }
  )
})
