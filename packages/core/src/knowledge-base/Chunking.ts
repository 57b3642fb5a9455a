import { isHighSurrogate } from "../text/CodePoints.js"

/** How long chunks are and how much consecutive chunks share, in UTF-16 code units (`string.length`). */
export interface ChunkOptions {
  readonly size: number
  readonly overlap: number
}

/** About a page of prose per chunk, with a sentence or so repeated so no fact is cut off from its context. */
export const defaults: ChunkOptions = { size: 1000, overlap: 100 }

/** One piece of a text: `text === source.slice(start, end)`. */
export interface Chunk {
  readonly index: number
  readonly start: number
  readonly end: number
  readonly text: string
}

/** Whitespace as `\s` sees it; printable ASCII skips the regex, since this runs for every character. */
const isSpace = (c: string | undefined): boolean =>
  c !== undefined && !(c > " " && c < "\u007f") && /\s/.test(c)
const sentenceEnd = /[.!?…;:]["'”’)\]]*$/

type BreakKind = "paragraph" | "line" | "sentence" | "word"
const preference: ReadonlyArray<BreakKind> = ["paragraph", "line", "sentence", "word"]

/** What kind of boundary a word end at `b` is, judged by the whitespace after it and the word before it. */
const kindAt = (text: string, b: number): BreakKind => {
  let newlines = 0
  for (let i = b; i < text.length && isSpace(text[i]); i++) {
    if (text[i] === "\n" && ++newlines === 2) return "paragraph"
  }
  if (newlines === 1) return "line"
  return sentenceEnd.test(text.slice(Math.max(0, b - 4), b)) ? "sentence" : "word"
}

/**
 * Where a chunk starting at `start` ends, after `after` (the previous chunk's end, so ends always
 * advance): the latest paragraph break within the size limit, else the latest line break, sentence end
 * or word end, preferably no earlier than half the limit (so chunks are not tiny), else any earlier word
 * end; a hard cut only inside a word longer than the limit. `undefined` when an overlapping start
 * cannot reach past `after` without a hard cut: the caller then starts afresh after `after`.
 */
const endOf = (text: string, start: number, size: number, after: number): number | undefined => {
  const limit = start + size
  const floor = Math.max(start + Math.floor(size / 2), after)
  const found: Partial<Record<BreakKind, number>> = {}
  let latest: number | undefined
  for (let b = limit; b > Math.max(start, after); b--) {
    // a break is a word end: something before it, whitespace after it
    if (!isSpace(text[b]) || isSpace(text[b - 1])) continue
    if (b <= floor) {
      latest = b
      break
    }
    const kind = kindAt(text, b)
    found[kind] ??= b
    if (kind === "paragraph") break
  }
  for (const kind of preference) {
    const b = found[kind]
    if (b !== undefined) return b
  }
  if (latest !== undefined) return latest
  if (start < after) return undefined
  // Hard cut: never between the halves of a surrogate pair, unless the pair alone is over the limit.
  return isHighSurrogate(text.charCodeAt(limit - 1)) && limit - 1 > start ? limit - 1 : limit
}

/** The first position at or after `i` that is not whitespace. */
const skipSpace = (text: string, i: number) => {
  while (i < text.length && isSpace(text[i])) i++
  return i
}

/**
 * Splits a text into chunks for retrieval, in order. Each chunk is a non-empty slice of the text with
 * no whitespace at either end and at most `size` long; together they cover every non-whitespace
 * character; consecutive chunks share at most `overlap` characters, starting at a word. Splits prefer
 * paragraph breaks, then line breaks, sentence ends and word ends. `overlap` is capped below half the
 * size, which guarantees progress.
 */
export const split = (text: string, options: ChunkOptions = defaults): ReadonlyArray<Chunk> => {
  const size = Math.max(1, Math.floor(options.size))
  const overlap = Math.max(0, Math.min(Math.floor(options.overlap), Math.floor((size - 1) / 2)))
  let contentEnd = text.length
  while (contentEnd > 0 && isSpace(text[contentEnd - 1])) contentEnd--
  const chunks: Array<Chunk> = []
  let start = skipSpace(text, 0)
  let previousEnd = 0
  while (start < contentEnd) {
    const end = contentEnd - start <= size ? contentEnd : endOf(text, start, size, previousEnd)
    if (end === undefined) {
      start = skipSpace(text, previousEnd)
      continue
    }
    previousEnd = end
    chunks.push({ index: chunks.length, start, end, text: text.slice(start, end) })
    if (end >= contentEnd) break
    // The next chunk repeats the tail of this one from the earliest word start within `overlap`.
    let next = end
    for (let i = Math.max(end - overlap, start + 1); i < end; i++) {
      if (!isSpace(text[i]) && isSpace(text[i - 1])) {
        next = i
        break
      }
    }
    start = skipSpace(text, next)
  }
  return chunks
}
