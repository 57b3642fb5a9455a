import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as SentenceSplitter from "../../src/voice/SentenceSplitter.js"

/** The sentences of `text` pushed in the given pieces, then flushed. */
const inPieces = (pieces: ReadonlyArray<string>): ReadonlyArray<string> => {
  let splitter = SentenceSplitter.empty
  const all: Array<string> = []
  for (const piece of pieces) {
    const [next, sentences] = SentenceSplitter.push(splitter, piece)
    splitter = next
    all.push(...sentences)
  }
  const rest = SentenceSplitter.flush(splitter)
  return rest === null ? all : [...all, rest]
}

/** `text` cut at the given positions. */
const cut = (text: string, cuts: ReadonlyArray<number>): ReadonlyArray<string> => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const pieces: Array<string> = []
  let from = 0
  for (const c of at) {
    pieces.push(text.slice(from, c))
    from = c
  }
  pieces.push(text.slice(from))
  return pieces
}

const squash = (text: string) => text.replace(/\s+/g, "")

describe("SentenceSplitter", () => {
  it("splits at sentence ends once whitespace follows", () => {
    expect(SentenceSplitter.split("Hello there! How can I help? We open at 9. Bye…")).toEqual([
      "Hello there!",
      "How can I help?",
      "We open at 9.",
      "Bye…"
    ])
    expect(SentenceSplitter.split('He said "fine." Then he left.')).toEqual([
      'He said "fine."',
      "Then he left."
    ])
    expect(SentenceSplitter.split("Wait... what?! Really")).toEqual(["Wait...", "what?!", "Really"])
    expect(SentenceSplitter.split("Line one\nLine two")).toEqual(["Line one", "Line two"])
    expect(SentenceSplitter.split("你好。我们明天见！好")).toEqual(["你好。", "我们明天见！", "好"])
  })

  it("keeps numbers, addresses, abbreviations and initials inside their sentence", () => {
    expect(SentenceSplitter.split("It costs 3.50 euros at example.com today. Thanks.")).toEqual([
      "It costs 3.50 euros at example.com today.",
      "Thanks."
    ])
    expect(SentenceSplitter.split("Dr. Smith and J. Brown will call, e.g. on Monday. Ok.")).toEqual([
      "Dr. Smith and J. Brown will call, e.g. on Monday.",
      "Ok."
    ])
  })

  it("gives a sentence only when the text after it says it ended", () => {
    const [first, none] = SentenceSplitter.push(SentenceSplitter.empty, "Hello.")
    expect(none).toEqual([])
    const [second, one] = SentenceSplitter.push(first, " How")
    expect(one).toEqual(["Hello."])
    expect(second.pending).toBe("How")
    expect(SentenceSplitter.flush(second)).toBe("How")
    expect(SentenceSplitter.flush(SentenceSplitter.empty)).toBeNull()
    expect(SentenceSplitter.flush({ pending: "  \n " })).toBeNull()
  })

  it("cuts a long sentence at a clause break, a space, or the bound", () => {
    const clause = `${"word ".repeat(30).trim()}, ${"more ".repeat(50).trim()}.`
    const sentences = SentenceSplitter.split(clause)
    expect(sentences[0]).toBe(`${"word ".repeat(30).trim()},`)
    expect(sentences.every((s) => s.length <= SentenceSplitter.maxChars)).toBe(true)
    const unbroken = "x".repeat(SentenceSplitter.maxChars * 2 + 5)
    expect(SentenceSplitter.split(unbroken)).toEqual([
      "x".repeat(SentenceSplitter.maxChars),
      "x".repeat(SentenceSplitter.maxChars),
      "xxxxx"
    ])
  })

  const texts = FastCheck.array(
    FastCheck.oneof(
      FastCheck.constantFrom("Hello", "Dr.", "3.5", "e.g.", "J.", "ok", "x".repeat(90), "…", "你好。"),
      FastCheck.constantFrom(". ", "! ", "? ", ", ", " ", "\n", '." ', ".", "  "),
      FastCheck.string({ maxLength: 12 })
    ),
    { maxLength: 60 }
  ).map((parts) => parts.join(""))

  it("gives the same sentences however the text is cut into pieces", () => {
    FastCheck.assert(
      FastCheck.property(texts, FastCheck.array(FastCheck.nat(), { maxLength: 20 }), (text, cuts) => {
        expect(inPieces(cut(text, cuts))).toEqual(SentenceSplitter.split(text))
      })
    )
  })

  it("keeps every character but whitespace, in order, in trimmed sentences within the bound", () => {
    FastCheck.assert(
      FastCheck.property(texts, (text) => {
        const sentences = SentenceSplitter.split(text)
        expect(squash(sentences.join(""))).toBe(squash(text))
        for (const sentence of sentences) {
          expect(sentence).not.toBe("")
          expect(sentence).toBe(sentence.trim())
          expect(sentence.length).toBeLessThanOrEqual(SentenceSplitter.maxChars)
        }
      })
    )
  })
})
