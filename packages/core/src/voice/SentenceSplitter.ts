/**
 * Splits a reply into sentences as the model writes it, so that each sentence can be spoken (text to
 * speech) while the next one is still being written. A pure rule over the text received so far: what it
 * gives depends only on that text, never on how it was cut into pieces (a property test checks this).
 *
 * - A sentence ends after `.`, `!`, `?`, `…`, with any closing quotes or brackets after them, once
 *   whitespace follows (after the CJK `。！？`, once anything follows); or at a line break. `3.5`, `example.com` and `e.g.` do not end one,
 *   nor a period after a known abbreviation (`Dr.`, `Mr.`) or a single capital (`J. Smith`).
 * - A sentence never grows past `maxChars`: text that reaches it without ending is cut at its last clause
 *   break (`,` `;` `:` then whitespace), else its last whitespace, else at `maxChars` itself.
 * - Sentences are trimmed and never empty; the whitespace between them is not kept.
 */

/** The longest sentence given (far below the text-to-speech bound of 4096). */
export const maxChars = 240

export interface Splitter {
  /** Text received and not yet given as a sentence. */
  readonly pending: string
}

export const empty: Splitter = { pending: "" }

const terminators = new Set([".", "!", "?", "…", "。", "！", "？"])
/** Full-width terminators end a sentence with no space after them (CJK text has none). */
const wideTerminators = new Set(["。", "！", "？"])
const closers = new Set(['"', "'", "”", "’", ")", "]", "»", "」"])
const clauseBreaks = new Set([",", ";", ":", "，", "；", "："])
const abbreviations = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "sr",
  "jr",
  "vs",
  "etc",
  "e.g",
  "i.e",
  "no",
  "nr",
  "ul",
  "np",
  "tj",
  "tel"
])

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char)

/** Whether the period at `at` ends an abbreviation or an initial (then it ends no sentence). */
const isAbbreviation = (text: string, at: number): boolean => {
  let start = at
  while (start > 0 && /[\p{L}.]/u.test(text[start - 1]!)) start -= 1
  const word = text.slice(start, at)
  return abbreviations.has(word.toLowerCase()) || /^\p{Lu}$/u.test(word)
}

/**
 * Where the first sentence of `text` ends (the index after its last character), or null when the text
 * received so far does not say yet.
 */
const firstEnd = (text: string): number | null => {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === "\n") return i
    if (!terminators.has(char)) continue
    let end = i + 1
    while (end < text.length && (terminators.has(text[end]!) || closers.has(text[end]!))) end += 1
    if (end >= text.length) return null
    if (!isSpace(text[end]) && !wideTerminators.has(char)) {
      i = end - 1
      continue
    }
    if (char === "." && end === i + 1 && isAbbreviation(text, i)) {
      i = end - 1
      continue
    }
    return end
  }
  return null
}

/** Where to cut text that reached `maxChars` without a sentence ending: a clause break, a space, or the bound. */
const cutAt = (text: string): number => {
  const head = text.slice(0, maxChars + 1)
  for (let i = maxChars - 1; i > 0; i--) {
    if (clauseBreaks.has(head[i]!) && isSpace(head[i + 1])) return i + 1
  }
  for (let i = maxChars; i > 0; i--) {
    if (isSpace(head[i])) return i
  }
  return maxChars
}

const trimStart = (text: string) => text.replace(/^\s+/, "")

/** The splitter after `text` arrives, and the sentences it completed, in order. */
export const push = (splitter: Splitter, text: string): readonly [Splitter, ReadonlyArray<string>] => {
  let pending = trimStart(splitter.pending + text)
  const sentences: Array<string> = []
  for (;;) {
    const end = firstEnd(pending)
    const at = end !== null && end <= maxChars ? end : pending.length > maxChars ? cutAt(pending) : null
    if (at === null) break
    const sentence = pending.slice(0, at).trim()
    if (sentence !== "") sentences.push(sentence)
    pending = trimStart(pending.slice(at))
  }
  return [{ pending }, sentences]
}

/** The last sentence once the reply is complete (what is pending, trimmed), or null when nothing is. */
export const flush = (splitter: Splitter): string | null => {
  const rest = splitter.pending.trim()
  return rest === "" ? null : rest
}

/** Every sentence of a whole text. */
export const split = (text: string): ReadonlyArray<string> => {
  const [splitter, sentences] = push(empty, text)
  const rest = flush(splitter)
  return rest === null ? sentences : [...sentences, rest]
}
