/** The readable text of Markdown: markup dropped, structure kept as plain lines. */
import type { Extraction } from "./Extraction.js"
import { normalize } from "./PlainText.js"

const escapable = "\\`*_{}[]()#+-.!|>~<"
/** Backslash-escaped characters as placeholders from the private use area, so that no markup rule sees them. */
const hideEscapedCharacters = (s: string) =>
  s.replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, (_, c: string) =>
    String.fromCharCode(0xe000 + escapable.indexOf(c))
  )
/** The placeholders of `hideEscapedCharacters` back as the characters they stand for. */
const restoreEscapedCharacters = (s: string) =>
  s.replace(/[\ue000-\ue013]/g, (c) => escapable[c.charCodeAt(0) - 0xe000] ?? c)

/**
 * A line cut into text and code spans. A code span is a run of backticks closed by the next run of the
 * same length; runs are paired left to right with one pointer per length, so unclosed runs cost
 * linear time.
 */
const codeSpans = (line: string): Array<{ readonly code: boolean; readonly text: string }> => {
  const runs: Array<{ readonly start: number; readonly length: number }> = []
  for (let i = 0; i < line.length;) {
    if (line[i] !== "`") {
      i++
      continue
    }
    let j = i
    while (line[j] === "`") j++
    runs.push({ start: i, length: j - i })
    i = j
  }
  const byLength = new Map<number, Array<number>>()
  runs.forEach((run, k) => {
    const same = byLength.get(run.length)
    if (same === undefined) byLength.set(run.length, [k])
    else same.push(k)
  })
  const next = new Map<number, number>()
  const parts: Array<{ readonly code: boolean; readonly text: string }> = []
  let cursor = 0
  for (let k = 0; k < runs.length;) {
    const run = runs[k]!
    const same = byLength.get(run.length)!
    let p = next.get(run.length) ?? 0
    while (p < same.length && same[p]! <= k) p++
    next.set(run.length, p)
    if (p === same.length) {
      k++
      continue
    }
    const close = runs[same[p]!]!
    parts.push({ code: false, text: line.slice(cursor, run.start) })
    parts.push({ code: true, text: line.slice(run.start + run.length, close.start).trim() })
    cursor = close.start + close.length
    k = same[p]! + 1
  }
  parts.push({ code: false, text: line.slice(cursor) })
  return parts
}

/**
 * Inline markup away: images become their alt text, links their text; tags go; emphasis delimiters
 * (`*`, `_`, `~~`, up to three) go where they open or close a word, so `snake_case` and `2*3*4` stay.
 * Every pattern is linear: the input may be one 10 MB line.
 */
const inlineMarkdown = (line: string): string =>
  codeSpans(line)
    .map(({ code, text }) =>
      code
        ? text
        : restoreEscapedCharacters(
            hideEscapedCharacters(text)
              .replace(/!\[([^\][]*)\]\([^()\s]*(?:\s+"[^"\n]{0,300}")?\)/g, "$1")
              .replace(/\[([^\][]+)\]\([^()\s]*(?:\s+"[^"\n]{0,300}")?\)/g, "$1")
              .replace(/\[([^\][]+)\]\[[^\][]*\]/g, "$1")
              .replace(/<((?:https?|mailto):[^<>\s]+)>/g, "$1")
              .replace(/<\/?[A-Za-z][^<>]*>/g, "")
              .replace(/(^|[\s\p{P}\p{S}])(?:\*{1,3}|_{1,3}|~~)(?=[^\s*_~])/gu, "$1")
              .replace(/(?<=[^\s*_~])(?:\*{1,3}|_{1,3}|~~)(?=$|[\s\p{P}\p{S}])/gu, "")
          )
    )
    .join("")

const fence = /^\s{0,3}(`{3,}|~{3,})/
const heading = /^\s{0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/
const thematicBreak = /^\s{0,3}([-*_=])(?:\s*\1){2,}\s*$/
const tableDelimiter = /^\s*(?:\|\s*)?:?-+:?\s*(?:\|\s*:?-+:?\s*)+(?:\|\s*)?$/
const referenceDefinition = /^\s{0,3}\[[^\]]+\]:\s*\S+/
const bullet = /^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?/

/**
 * Markdown as readable text: headings, emphasis, links (their text), images (their alt text), code
 * (its content), quotes and tables lose their markup; rules, fences, table delimiters and link
 * definitions disappear; bullets become `- `.
 */
export const markdown = (source: string): Extraction => {
  const out: Array<string> = []
  const headings: Array<string> = []
  let inFence: string | null = null
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const fenceMatch = fence.exec(raw)
    if (inFence !== null) {
      if (
        fenceMatch !== null &&
        fenceMatch[1]![0] === inFence[0] &&
        fenceMatch[1]!.length >= inFence.length
      ) {
        inFence = null
      } else {
        out.push(raw)
      }
      continue
    }
    if (fenceMatch !== null) {
      inFence = fenceMatch[1]!
      continue
    }
    // Rules, table delimiters and link definitions are short; long lines skip the backtracking patterns.
    if (
      raw.length <= 1000 &&
      (thematicBreak.test(raw) || tableDelimiter.test(raw) || referenceDefinition.test(raw))
    )
      continue
    let line = raw.replace(/^\s{0,3}(?:>\s?)+/, "")
    const h = heading.exec(line)
    if (h !== null) {
      const text = inlineMarkdown(h[1] ?? "").trim()
      if (text !== "") headings.push(text)
      // a heading starts a paragraph of its own
      out.push("", text, "")
      continue
    }
    line = line.replace(bullet, "$1- ")
    if (/^\s*\|/.test(line)) {
      line = line
        .trim()
        .replace(/^\|/, "")
        .replace(/(?<!\\)\|$/, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join(" | ")
    }
    out.push(inlineMarkdown(line))
  }
  const text = normalize(out.join("\n"))
  return { text, metadata: { heading_count: headings.length, title: headings[0] ?? null } }
}
