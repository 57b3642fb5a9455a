import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ImprovementSuggestions from "../../src/improvements/ImprovementSuggestions.js"
import { RunId } from "../../src/runs/RunId.js"

type Generated = ImprovementSuggestions.Generated["suggestions"][number]

const suggestion = (text: string, rationale = "", source_run_id: number | null = null): Generated => ({
  text,
  rationale,
  source_run_id
})
const toAdd = (
  suggestions: ReadonlyArray<Generated>,
  runs: ReadonlyArray<number> = [],
  pending: ReadonlyArray<string> = []
) =>
  ImprovementSuggestions.toAdd(
    { suggestions },
    runs.map((id) => RunId.make(id)),
    pending
  )
/** Text as compared with others: whitespace runs one space, trimmed, case aside. */
const comparable = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase()
const highSurrogate = /[\uD800-\uDBFF]$/

const anyText = FastCheck.oneof(
  FastCheck.constantFrom(
    "Offer the sale.",
    "  offer THE\tsale. ",
    "Ask for the size.",
    "",
    "   ",
    "😀".repeat(1_100)
  ),
  FastCheck.string({ maxLength: 30 }),
  FastCheck.string({ unit: "binary", maxLength: 30 }),
  // texts reaching the bounds (1,000 and 2,000 characters) where a space may fall
  FastCheck.tuple(
    FastCheck.oneof(
      FastCheck.integer({ min: 995, max: 1_000 }),
      FastCheck.integer({ min: 1_995, max: 2_000 })
    ),
    FastCheck.constantFrom(" ", "  \n ", "x")
  ).map(([n, tail]) => `${"w".repeat(n)}${tail}more words`)
)
const anySuggestion = FastCheck.record({
  text: anyText,
  rationale: anyText,
  source_run_id: FastCheck.option(FastCheck.integer({ min: 1, max: 12 }))
})

describe("ImprovementSuggestions.toAdd", () => {
  it("adds at most three, trimmed, whitespace runs one space, an empty rationale null", () => {
    expect(
      toAdd(
        [
          suggestion("  Offer the\n\nsale.  ", " Callers asked. ", 3),
          suggestion("Ask for the size.", "   "),
          suggestion("Greet by name."),
          suggestion("Say goodbye.")
        ],
        [3]
      )
    ).toEqual([
      { text: "Offer the sale.", rationale: "Callers asked.", source_run_id: 3 },
      { text: "Ask for the size.", rationale: null, source_run_id: null },
      { text: "Greet by name.", rationale: null, source_run_id: null }
    ])
  })

  it("leaves out empty ones, those equal to a pending one or given twice, whatever their case and spacing", () => {
    expect(
      toAdd(
        [
          suggestion("  "),
          suggestion("MENTION  the sale"),
          suggestion("Ask for the size."),
          suggestion("ask for the\tsize."),
          suggestion("Greet by name."),
          suggestion("Say goodbye.")
        ],
        [],
        ["Mention the sale", "Offer coffee."]
      ).map((s) => s.text)
    ).toEqual(["Ask for the size.", "Greet by name.", "Say goodbye."])
  })

  it("keeps a source run only when it is one of the runs read", () => {
    expect(toAdd([suggestion("A", "", 5), suggestion("B", "", 6)], [5]).map((s) => s.source_run_id)).toEqual([
      5,
      null
    ])
  })

  it("bounds the text and the rationale, never splitting a character", () => {
    const [added] = toAdd([suggestion(`${"t".repeat(1_999)}😀 more`, "r".repeat(1_500))])
    expect(added!.text).toBe("t".repeat(1_999))
    expect(added!.rationale).toHaveLength(ImprovementSuggestions.rationaleChars)
  })

  it("does not add again a long suggestion a previous generation added and is still pending", () => {
    const long = `${"w".repeat(1_999)} and the rest of the instruction`
    const [earlier] = toAdd([suggestion(long)])
    expect(earlier!.text.length).toBeLessThanOrEqual(ImprovementSuggestions.textChars)
    expect(toAdd([suggestion(long)], [], [earlier!.text])).toEqual([])
  })

  it.prop(
    "at most three, distinct, none pending, each bounded and trimmed, the earliest fitting ones, sources among the runs",
    [
      FastCheck.array(anySuggestion, { maxLength: 8 }),
      FastCheck.uniqueArray(FastCheck.integer({ min: 1, max: 12 }), { maxLength: 6 }),
      FastCheck.array(anyText, { maxLength: 4 })
    ],
    ([suggestions, runs, pending]) => {
      const added = toAdd(suggestions, runs, pending)
      expect(added.length).toBeLessThanOrEqual(ImprovementSuggestions.maxSuggestions)
      const texts = added.map((s) => comparable(s.text))
      expect(new Set(texts).size).toBe(texts.length)
      // each pending text as a suggestion keeps it (one at a time: a generation adds at most three)
      const pendingAdded = pending.flatMap((text) => toAdd([suggestion(text)]).map((s) => comparable(s.text)))
      for (const text of texts) expect(pendingAdded).not.toContain(text)
      for (const s of added) {
        expect(s.text).not.toBe("")
        expect(s.text).toBe(s.text.trim())
        expect(s.text.length).toBeLessThanOrEqual(ImprovementSuggestions.textChars)
        expect(s.text).not.toMatch(highSurrogate)
        if (s.rationale !== null) {
          expect(s.rationale).not.toBe("")
          expect(s.rationale).toBe(s.rationale.trim())
          expect(s.rationale.length).toBeLessThanOrEqual(ImprovementSuggestions.rationaleChars)
        }
        if (s.source_run_id !== null) expect(runs).toContain(s.source_run_id)
      }
      // each added one comes from a suggestion given, in order, and none that could be added was passed over
      let from = 0
      for (const s of added) {
        const index = suggestions.findIndex(
          (g, i) => i >= from && comparable(g.text).startsWith(comparable(s.text))
        )
        expect(index).toBeGreaterThanOrEqual(from)
        from = index + 1
      }
      if (added.length < ImprovementSuggestions.maxSuggestions) {
        for (const g of suggestions) {
          const [alone] = toAdd([g])
          if (alone !== undefined && !pendingAdded.includes(comparable(alone.text))) {
            expect(texts).toContain(comparable(alone.text))
          }
        }
      }
    }
  )

  it.prop(
    "a pending suggestion a generation added is never added again",
    [FastCheck.array(anySuggestion, { minLength: 1, maxLength: 3 })],
    ([suggestions]) => {
      const earlier = toAdd(suggestions)
      expect(
        toAdd(
          suggestions,
          [],
          earlier.map((s) => s.text)
        )
      ).toEqual([])
    }
  )
})
