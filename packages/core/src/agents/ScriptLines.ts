/** What one line of a call script holds: a key, a list marker, quotes, an arrow or a question, its indent. */
import { fold } from "./ScriptVocabulary.js"

/** The line without a Markdown heading mark or a bold wrapper at its start. */
export const bare = (line: string): string =>
  line
    .replace(/^#{1,6}\s*/, "")
    .replace(/^\*\*(.+?)\*\*/, "$1")
    .trim()

/** `key: value`, the colon followed by whitespace or the end of the line. */
export const splitKey = (line: string): { readonly key: string; readonly value: string } | undefined => {
  const colon = line.indexOf(":")
  if (colon <= 0) return undefined
  const next = line.charAt(colon + 1)
  if (next !== "" && next.trim() !== "") return undefined
  const key = line.slice(0, colon).trim()
  return key === "" ? undefined : { key, value: line.slice(colon + 1).trim() }
}

export const quotePairs: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ["“", "”"],
  ["„", "”"],
  ["„", "“"],
  ["«", "»"],
  ["»", "«"],
  ["‘", "’"],
  ["‚", "’"]
]

/** Trimmed, without one pair of surrounding quotes when nothing inside is a quote of that pair. */
export const unquote = (value: string): string => {
  const text = value.trim()
  if (text.length < 2) return text
  for (const [open, close] of quotePairs) {
    if (!text.startsWith(open) || !text.endsWith(close)) continue
    const inside = text.slice(open.length, text.length - close.length)
    if (!inside.includes(open) && !inside.includes(close)) return inside.trim()
  }
  return text
}

export const usable = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

export const isSeparator = (line: string): boolean => /^[-=_*~.#•·–—]{3,}$/.test(line.replace(/\s+/g, ""))

export const isShortKey = (key: string): boolean =>
  key.length <= 40 && key.split(/\s+/).length <= 5 && /^[\p{L}\p{N}][\p{L}\p{N}\s'&/()_-]*$/u.test(key)

export const indentOf = (raw: string): number => {
  let column = 0
  for (const char of raw) {
    if (char === "\t") column += 4 - (column % 4)
    else if (char.trim() === "") column += 1
    else break
  }
  return column
}

export interface Marker {
  readonly numbered: boolean
  readonly content: string
}

export const bulletMark = /^(?:[-*+–—](?:\s+|$)|[•·▪◦‣●○■►➢✓✔]\s*)/
export const numberMark = /^(?:\d{1,3}[.)]|(?:step|krok|etap)\s*\d{1,3}\s*[:.)–-]?)(?:\s+|$)/i

export const listMarker = (line: string): Marker | undefined => {
  const numbered = numberMark.exec(line)
  if (numbered !== null) return { numbered: true, content: line.slice(numbered[0].length).trim() }
  const bullet = bulletMark.exec(line)
  return bullet === null ? undefined : { numbered: false, content: line.slice(bullet[0].length).trim() }
}

export const arrow = /->|→|=>|⇒/

/** `left -> right`, or undefined when there is no arrow or nothing before it. */
export const splitArrow = (text: string): { readonly left: string; readonly right: string } | undefined => {
  const match = arrow.exec(text)
  if (match === null) return undefined
  const left = unquote(text.slice(0, match.index))
  return left === "" ? undefined : { left, right: unquote(text.slice(match.index + match[0].length)) }
}

/** `question? answer`, splitting after the first `?` (and a closing quote after it). */
export const splitQuestion = (
  text: string
): { readonly question: string; readonly answer: string } | undefined => {
  const mark = /\?["”“'’»]?/.exec(text)
  if (mark === null) return undefined
  const end = mark.index + mark[0].length
  const answer = unquote(text.slice(end))
  const question = unquote(text.slice(0, end))
  return answer === "" || question === "" ? undefined : { question, answer }
}

export const directionOf = (value: string): "inbound" | "outbound" | undefined => {
  const match = /inbound|incoming|przychodz|outbound|outgoing|wychodz/.exec(fold(value))
  if (match === null) return undefined
  return match[0] === "outbound" || match[0] === "outgoing" || match[0] === "wychodz" ? "outbound" : "inbound"
}

export const join = (before: string, text: string, separator = " "): string =>
  before === "" ? text : `${before}${separator}${text}`
