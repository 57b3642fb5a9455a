import { tokenize } from "../../knowledge-base/Search.js"

/**
 * How the embedded model compares words: the knowledge base's terms (lower case, no diacritics), a few
 * English endings taken off, function words of English and Polish left out. Matching is by whole words
 * only; nothing here understands what the words mean.
 */

/** Letters Unicode does not decompose but people type without their stroke (one letter for one). */
const stroked: Readonly<Record<string, string>> = { ł: "l", đ: "d", ø: "o", ß: "s", æ: "a", œ: "o", ı: "i" }

/**
 * The text in lower case without diacritics, every UTF-16 unit kept in its place (`Zażółć` → `zazolc`),
 * so that a position found in the folded text is the same position in the original.
 */
export const fold = (text: string): string => {
  let folded = ""
  for (let i = 0; i < text.length; i++) {
    const unit = text[i]!
    const code = unit.charCodeAt(0)
    // a surrogate half is not a letter that folds: keep the pair as it is
    if (code >= 0xd800 && code <= 0xdfff) {
      folded += unit
      continue
    }
    const lower = unit.toLowerCase()
    if (lower.length !== 1) {
      folded += unit
      continue
    }
    const base = lower.normalize("NFD")[0]!
    folded += stroked[lower] ?? (base.length === 1 && /^\p{L}$/u.test(base) ? base : lower)
  }
  return folded
}

/** English and Polish words that carry no topic (folded), left out when texts are compared. */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a an the and or but if of to in on at for with by from about as into than then so too very just also " +
    "is are was were be been being am do does did done can could would should will shall may might must " +
    "have has had i me my mine you your yours we our us he him his she her it its they them their this that " +
    "these those there here what when where who whom whose why how which please thanks thank hi hello hey " +
    "yes no ok okay not dont don t s m ll re ve d any some all " +
    "w z na do o od po za ze sie czy co jak jaki jaka jakie jakiego kiedy gdzie kto to ten ta te tej tego jest " +
    "sa byc mam ma masz pan pani panu prosze moj moja moje mnie mi ja ty wy my nas was ale lub albo dla tak " +
    "nie oraz a i u juz jeszcze by bym"
  ).split(" ")
)

/**
 * An English word without its common inflection (`hours` → `hour`, `opening` → `open`, `booked` →
 * `book`), so that a question and an answer written with different endings share it. Short words and
 * words of other languages pass through unchanged when no ending applies.
 */
export const stem = (word: string): string => {
  if (word.length <= 4) return word
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (word.endsWith("sses")) return word.slice(0, -2)
  if (word.endsWith("ing") && word.length > 5) return word.slice(0, -3)
  if (word.endsWith("ed") && word.length > 5) return word.slice(0, -2)
  if (word.endsWith("es") && /(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1)
  return word
}

/** The words of a text as compared: folded terms without stop words, stemmed, in order (repeats kept). */
export const contentWords = (text: string): ReadonlyArray<string> =>
  tokenize(text)
    .filter((word) => !stopWords.has(word))
    .map(stem)

/** The words of a text, folded, stop words kept: what phrases are matched against. */
export const words = (text: string): ReadonlyArray<string> => tokenize(text)

/** True when `phrase`'s words occur in `text` in a row, as whole words (case, diacritics and punctuation aside). */
export const says = (text: string, phrase: string): boolean => {
  const wanted = tokenize(phrase).join(" ")
  return wanted !== "" && ` ${tokenize(text).join(" ")} `.includes(` ${wanted} `)
}

/** True when the text contains any of the phrases. */
export const saysAny = (text: string, phrases: ReadonlyArray<string>): boolean =>
  phrases.some((phrase) => says(text, phrase))

/** The position of the first phrase found in `text` (in words), or -1. */
export const firstPhraseAt = (text: string, phrases: ReadonlyArray<string>): number => {
  const textWords = tokenize(text)
  let first = -1
  for (const phrase of phrases) {
    const wanted = tokenize(phrase)
    if (wanted.length === 0) continue
    for (let at = 0; at + wanted.length <= textWords.length; at++) {
      if (first !== -1 && at >= first) break
      if (wanted.every((word, i) => textWords[at + i] === word)) {
        first = at
        break
      }
    }
  }
  return first
}

/** The share of `wanted`'s distinct words that `have` holds, 0 when `wanted` has none. */
export const coverage = (wanted: ReadonlyArray<string>, have: ReadonlySet<string>): number => {
  const distinct = [...new Set(wanted)]
  return distinct.length === 0 ? 0 : distinct.filter((word) => have.has(word)).length / distinct.length
}

/** A key as words: `first_name` and `firstName` → `first name`. */
export const humanize = (key: string): string =>
  key
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/[_\-.\s]+/g, " ")
    .trim()
    .toLowerCase()
