import type { TranscriptFragment, TranscriptTurn } from "./Transcript.js"

/**
 * Canonical text: surrounding whitespace trimmed and every whitespace run (newlines, tabs, U+2028...) made
 * one space, so a fragment always fits on one line of the raw file.
 */
export const canonicalText = (text: string): string => text.replace(/\s+/g, " ").trim()

/**
 * The fragments as a transcript shows them: stably sorted by timestamp (ties keep their given order),
 * text canonicalised, and dropped when the text is then empty or the timestamp is not a valid date, so such
 * fragments can neither split nor create turns.
 */
export const shownFragments = (
  fragments: Iterable<TranscriptFragment>
): ReadonlyArray<TranscriptFragment> => {
  const kept: Array<TranscriptFragment> = []
  for (const fragment of fragments) {
    const text = canonicalText(fragment.text)
    if (text === "" || Number.isNaN(fragment.timestamp.getTime())) continue
    kept.push(text === fragment.text ? fragment : { ...fragment, text })
  }
  // Array.prototype.sort is stable (ES2019).
  return kept.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime())
}

/**
 * Merges fragments into turns: consecutive fragments of one role (after `shownFragments`) form one turn, texts
 * joined with one space, `start` = first fragment's timestamp, `end` = last's (so `start <= end`).
 */
export const merge = (fragments: Iterable<TranscriptFragment>): ReadonlyArray<TranscriptTurn> => {
  const turns: Array<{ role: TranscriptTurn["role"]; texts: Array<string>; start: Date; end: Date }> = []
  for (const fragment of shownFragments(fragments)) {
    const last = turns[turns.length - 1]
    if (last !== undefined && last.role === fragment.role) {
      last.texts.push(fragment.text)
      last.end = fragment.timestamp
    } else {
      turns.push({
        role: fragment.role,
        texts: [fragment.text],
        start: fragment.timestamp,
        end: fragment.timestamp
      })
    }
  }
  return turns.map(({ end, role, start, texts }) => ({ role, text: texts.join(" "), start, end }))
}
