import { Either } from "effect"
import type { Role, TranscriptFragment } from "./Transcript.js"
import { shownFragments } from "./TranscriptTurns.js"
import { MalformedTranscriptLine } from "./TranscriptErrors.js"

/**
 * The raw transcript file: one fragment per line, `[<ISO 8601 timestamp>] <role>: <text>\n`, UTF-8 text.
 * Rendered timestamps are UTC with milliseconds (`Date.prototype.toISOString`).
 */

/** Renders fragments, ordered and canonicalised exactly as `TranscriptTurns.merge` sees them, one per line. */
export const render = (fragments: Iterable<TranscriptFragment>): string =>
  shownFragments(fragments)
    .map((fragment) => `[${fragment.timestamp.toISOString()}] ${fragment.role}: ${fragment.text}\n`)
    .join("")

// `s` so that `.` also matches U+2028/U+2029 in a hand-written file; the text may be empty ("user:").
const linePattern = /^\[([^\]]*)\] (user|assistant):(?: (.*))?$/s

/**
 * Parses a raw transcript. Tolerates CRLF line ends and a trailing newline; any other line (blank lines
 * included) that is not `[<timestamp>] <role>: <text>` fails with its 1-based number. Texts are returned as
 * written: `merge` canonicalises them.
 */
export const parse = (
  text: string
): Either.Either<ReadonlyArray<TranscriptFragment>, MalformedTranscriptLine> => {
  const lines = text.split("\n")
  // A final "\n" ends the last line rather than starting an empty one.
  if (lines[lines.length - 1] === "") lines.pop()
  const fragments: Array<TranscriptFragment> = []
  for (const [index, raw] of lines.entries()) {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw
    const match = linePattern.exec(content)
    const timestamp = match === null ? undefined : parseTimestamp(match[1] ?? "")
    if (match === null || timestamp === undefined) {
      return Either.left(new MalformedTranscriptLine({ line: index + 1, content }))
    }
    fragments.push({ role: match[2] as Role, text: match[3] ?? "", timestamp })
  }
  return Either.right(fragments)
}

const timestampPattern =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/

/**
 * A strict ISO 8601 date-time with seconds and an offset (`Z` or `±HH:MM`); fractions beyond milliseconds
 * are truncated. `Date.parse` alone would accept 30 February and other implementation-defined forms.
 */
const parseTimestamp = (text: string): Date | undefined => {
  const match = timestampPattern.exec(text)
  if (match === null) return undefined
  const [, yearText = "", month, day, hour, minute, second, fraction = "", , sign, offsetHour, offsetMinute] =
    match
  // "-000000" is not a valid extended year (ISO 8601 has a single year zero, "0000").
  if (yearText === "-000000") return undefined
  const year = Number(yearText)
  const [m, d, h, min, s, oh, om] = [month, day, hour, minute, second, offsetHour, offsetMinute].map(
    (group) => Number(group ?? "0")
  ) as [number, number, number, number, number, number, number]
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(year, m) || h > 23 || min > 59 || s > 59) return undefined
  if (oh > 23 || om > 59) return undefined
  const offsetMinutes = (sign === "-" ? -1 : 1) * (oh * 60 + om)
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, m - 1, d)
  date.setUTCHours(h, min - offsetMinutes, s, Number(fraction.padEnd(3, "0").slice(0, 3)))
  return Number.isNaN(date.getTime()) ? undefined : date
}

const daysInMonth = (year: number, month: number): number => {
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return date.getUTCDate()
}
