import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { Chunk } from "../../src/knowledge-base/Chunking.js"
import { defaults, split } from "../../src/knowledge-base/Chunking.js"

const sentence = (n: number) => `Sentence number ${n} says something useful.`
const texts = (chunks: ReadonlyArray<Chunk>) => chunks.map((c) => c.text)

/** Texts made of words, spaces, line and paragraph breaks, punctuation, long words and emoji. */
const text = FastCheck.array(
  FastCheck.oneof(
    { weight: 6, arbitrary: FastCheck.stringMatching(/^[a-zA-Złó]{1,9}$/) },
    { weight: 3, arbitrary: FastCheck.constantFrom(" ", " ", "  ", "\n", "\n\n", "\t", "\n \n") },
    { weight: 2, arbitrary: FastCheck.constantFrom(".", "! ", "? ", ", ", ". ", "…") },
    { weight: 1, arbitrary: FastCheck.stringMatching(/^[a-z]{20,80}$/) },
    { weight: 1, arbitrary: FastCheck.constantFrom("😀", "👩‍👩‍👧", "𝔘") }
  ),
  { maxLength: 300 }
).map((parts) => parts.join(""))

const options = FastCheck.record({
  size: FastCheck.integer({ min: 1, max: 200 }),
  overlap: FastCheck.integer({ min: 0, max: 150 })
})

const isSpace = (c: string) => /\s/.test(c)

describe("Chunking.split", () => {
  it("keeps a short text as one chunk, trimmed", () => {
    expect(split("  Hello there.\n\n")).toEqual([{ index: 0, start: 2, end: 14, text: "Hello there." }])
    expect(split("")).toEqual([])
    expect(split(" \n\t ")).toEqual([])
  })

  it("splits at paragraph breaks first, even when a sentence end is closer to the limit", () => {
    const first = [1, 2, 3, 4].map(sentence).join(" ")
    const second = [5, 6, 7, 8].map(sentence).join(" ")
    const chunks = split(`${first}\n\n${second}`, { size: 250, overlap: 0 })
    expect(texts(chunks)).toEqual([first, second])
  })

  it("splits at a sentence end rather than inside a sentence, and overlaps from a word start", () => {
    const source = [1, 2, 3, 4, 5, 6].map(sentence).join(" ")
    const chunks = split(source, { size: 100, overlap: 20 })
    expect(chunks[0]!.text).toBe(`${sentence(1)} ${sentence(2)}`)
    // the second chunk repeats the end of the first, starting at a word
    expect(chunks[1]!.start).toBeLessThan(chunks[0]!.end)
    expect(chunks[0]!.end - chunks[1]!.start).toBeLessThanOrEqual(20)
    expect(source[chunks[1]!.start - 1]).toBe(" ")
    expect(chunks.at(-1)!.end).toBe(source.length)
  })

  it("splits at line breaks before sentence ends", () => {
    const source = "Line one has words\nline two has more words. And a sentence that goes on"
    expect(texts(split(source, { size: 50, overlap: 0 }))[0]).toBe(
      "Line one has words\nline two has more words."
    )
    expect(texts(split("aaaa bbbb\ncccc. dddd eeee ffff", { size: 22, overlap: 0 }))[0]).toBe(
      "aaaa bbbb\ncccc."
    )
  })

  it("cuts a word longer than the limit, never between the halves of an emoji", () => {
    expect(texts(split("abcdefghij", { size: 4, overlap: 0 }))).toEqual(["abcd", "efgh", "ij"])
    expect(texts(split("ab😀cd", { size: 3, overlap: 0 }))).toEqual(["ab", "😀c", "d"])
  })

  it("uses the defaults: at most 1,000 characters, overlapping by at most 100", () => {
    expect(defaults).toEqual({ size: 1000, overlap: 100 })
    const source = Array.from({ length: 200 }, (_, i) => sentence(i)).join(" ")
    const chunks = split(source)
    expect(chunks.length).toBeGreaterThan(8)
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(1000)
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i - 1]!.end - chunks[i]!.start).toBeGreaterThan(0)
      expect(chunks[i - 1]!.end - chunks[i]!.start).toBeLessThanOrEqual(100)
    }
  })

  it("caps the overlap below half the size, so each chunk brings mostly new text", () => {
    expect(texts(split("aa bb cc dd ee ff gg hh", { size: 8, overlap: 7 }))).toEqual([
      "aa bb cc",
      "cc dd ee",
      "ee ff gg",
      "gg hh"
    ])
  })

  it("skips a long run of whitespace instead of repeating the text before it", () => {
    const source = `alpha beta${" ".repeat(40)}gamma`
    expect(texts(split(source, { size: 20, overlap: 8 }))).toEqual(["alpha beta", "gamma"])
  })

  it.prop(
    "chunks are non-empty slices of the text, no longer than the limit, without outer whitespace",
    [text, options],
    ([source, opts]) => {
      split(source, opts).forEach((chunk, i) => {
        expect(chunk.index).toBe(i)
        expect(chunk.text).toBe(source.slice(chunk.start, chunk.end))
        expect(chunk.text.length).toBeGreaterThan(0)
        expect(chunk.text.length).toBeLessThanOrEqual(opts.size)
        expect(chunk.text).toBe(chunk.text.trim())
      })
    }
  )

  it.prop(
    "chunks cover every non-whitespace character, in order, overlapping by at most `overlap`",
    [text, options],
    ([source, opts]) => {
      const chunks = split(source, opts)
      const content = source.trim()
      if (content === "") {
        expect(chunks).toEqual([])
        return
      }
      expect(chunks[0]!.start).toBe(source.length - source.trimStart().length)
      expect(chunks.at(-1)!.end).toBe(source.trimEnd().length)
      for (let i = 1; i < chunks.length; i++) {
        const previous = chunks[i - 1]!
        const chunk = chunks[i]!
        expect(chunk.start).toBeGreaterThan(previous.start)
        expect(chunk.end).toBeGreaterThan(previous.end)
        // a gap between chunks holds only whitespace; an overlap is bounded
        expect([...source.slice(previous.end, chunk.start)].every(isSpace)).toBe(true)
        expect(previous.end - chunk.start).toBeLessThanOrEqual(Math.floor((opts.size - 1) / 2))
        expect(previous.end - chunk.start).toBeLessThanOrEqual(opts.overlap)
      }
    }
  )

  it.prop(
    "a text that fits in one chunk is that one chunk",
    [text.filter((s) => s.trim().length > 0 && s.trim().length <= 200)],
    ([source]) => {
      expect(texts(split(source, { size: 200, overlap: 50 }))).toEqual([source.trim()])
    }
  )

  it.prop(
    "never breaks inside a word when the text has word breaks in every window",
    [FastCheck.array(FastCheck.stringMatching(/^[a-z]{1,10}$/), { minLength: 1, maxLength: 200 })],
    ([words]) => {
      const source = words.join(" ")
      for (const chunk of split(source, { size: 30, overlap: 8 })) {
        expect(chunk.start === 0 || source[chunk.start - 1] === " ").toBe(true)
        expect(chunk.end === source.length || source[chunk.end] === " ").toBe(true)
      }
    }
  )
})
