import { fold } from "./Words.js"

/**
 * Dates and times as people say or type them, in English and Polish: `2026-03-14`, `14.03.2026`,
 * `14/03/2026` (day first), `March 14th, 2026`, `14 March 2026`, `14 marca 2026`; `15:30`, `3:30 pm`,
 * `3pm`, `at 15`, `o 15:30`, `noon`. A date without a year, or a relative one ("tomorrow"), has no
 * calendar date: the model reads no clock, so the same words always give the same answer.
 */

/** A date found in a text: the calendar date when the text gives one, and the words as written. */
export interface FoundDate {
  /** YYYY-MM-DD, or null when the text gave no year. */
  readonly iso: string | null
  readonly phrase: string
  /** Where the phrase is in the text (UTF-16 positions), to take it out before reading numbers. */
  readonly start: number
  readonly end: number
}

/** Month names and abbreviations, English and Polish (nominative and genitive), folded → month number. */
const monthNames: ReadonlyArray<readonly [string, number]> = [
  ["january", 1],
  ["february", 2],
  ["march", 3],
  ["april", 4],
  ["may", 5],
  ["june", 6],
  ["july", 7],
  ["august", 8],
  ["september", 9],
  ["october", 10],
  ["november", 11],
  ["december", 12],
  ["jan", 1],
  ["feb", 2],
  ["mar", 3],
  ["apr", 4],
  ["jun", 6],
  ["jul", 7],
  ["aug", 8],
  ["sept", 9],
  ["sep", 9],
  ["oct", 10],
  ["nov", 11],
  ["dec", 12],
  ["styczen", 1],
  ["stycznia", 1],
  ["luty", 2],
  ["lutego", 2],
  ["marzec", 3],
  ["marca", 3],
  ["kwiecien", 4],
  ["kwietnia", 4],
  ["maj", 5],
  ["maja", 5],
  ["czerwiec", 6],
  ["czerwca", 6],
  ["lipiec", 7],
  ["lipca", 7],
  ["sierpien", 8],
  ["sierpnia", 8],
  ["wrzesien", 9],
  ["wrzesnia", 9],
  ["pazdziernik", 10],
  ["pazdziernika", 10],
  ["listopad", 11],
  ["listopada", 11],
  ["grudzien", 12],
  ["grudnia", 12]
]
const monthOf = new Map(monthNames)
// longest first, so `march` is tried before `mar`
const monthAlternation = [...monthOf.keys()].sort((a, b) => b.length - a.length).join("|")

const pad = (n: number) => String(n).padStart(2, "0")

/** YYYY-MM-DD when the day exists in that month of that year, else null. */
export const isoDate = (year: number, month: number, day: number): string | null => {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return null
  if (!Number.isInteger(month) || month < 1 || month > 12) return null
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (!Number.isInteger(day) || day < 1 || day > days) return null
  return `${year}-${pad(month)}-${pad(day)}`
}

const ordinal = "(?:st|nd|rd|th)?"
const datePatterns: ReadonlyArray<{
  readonly pattern: RegExp
  readonly read: (m: RegExpExecArray) => { readonly year: number | null; month: number; day: number }
}> = [
  {
    pattern: /(?<![\p{L}\p{N}])(\d{4})-(\d{1,2})-(\d{1,2})(?![\p{N}])/gu,
    read: (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })
  },
  {
    // day first, as in Poland and most of Europe; a first number over 12 on a slash makes it month first
    pattern: /(?<![\p{L}\p{N}.\/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?![\p{N}])/gu,
    read: (m) => {
      const a = Number(m[1])
      const b = Number(m[3])
      return m[2] === "/" && b > 12 && a <= 12
        ? { year: Number(m[4]), month: a, day: b }
        : { year: Number(m[4]), month: b, day: a }
    }
  },
  {
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}])(\\d{1,2})${ordinal}\\s*(?:of\\s+)?(${monthAlternation})\\.?(?![\\p{L}])(?:,?\\s*(\\d{4})(?![\\p{N}]))?`,
      "gu"
    ),
    read: (m) => ({
      year: m[3] === undefined ? null : Number(m[3]),
      month: monthOf.get(m[2]!)!,
      day: Number(m[1])
    })
  },
  {
    pattern: new RegExp(
      `(?<![\\p{L}])(${monthAlternation})\\.?\\s+(?:the\\s+)?(\\d{1,2})${ordinal}(?![\\p{L}\\p{N}:])(?:,?\\s*(\\d{4})(?![\\p{N}]))?`,
      "gu"
    ),
    read: (m) => ({
      year: m[3] === undefined ? null : Number(m[3]),
      month: monthOf.get(m[1]!)!,
      day: Number(m[2])
    })
  }
]

/** Every date in the text, in order of position (overlapping readings: the first pattern's wins). */
export const datesIn = (text: string): ReadonlyArray<FoundDate> => {
  const folded = fold(text)
  const found: Array<FoundDate> = []
  const overlaps = (start: number, end: number) => found.some((d) => start < d.end && d.start < end)
  for (const { pattern, read } of datePatterns) {
    for (const m of folded.matchAll(pattern)) {
      const start = m.index
      const end = start + m[0].length
      if (overlaps(start, end)) continue
      const { year, month, day } = read(m as RegExpExecArray)
      // a day that no month has is not a date (`45 May`); a missing year keeps the phrase only
      if (isoDate(year ?? 2000, month, day) === null) continue
      found.push({
        iso: year === null ? null : isoDate(year, month, day),
        phrase: text.slice(start, end),
        start,
        end
      })
    }
  }
  return found.sort((a, b) => a.start - b.start)
}

/** The first date in the text, or undefined. */
export const dateIn = (text: string): FoundDate | undefined => datesIn(text)[0]

/** A time found in a text, as HH:MM on a 24-hour clock, and where it is. */
export interface FoundTime {
  readonly time: string
  readonly start: number
  readonly end: number
}

const to24 = (hour: number, minute: number, meridiem: string | undefined): string | null => {
  if (minute < 0 || minute > 59) return null
  let h = hour
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null
    const pm = meridiem.startsWith("p")
    h = (hour % 12) + (pm ? 12 : 0)
  }
  return h >= 0 && h <= 23 ? `${pad(h)}:${pad(minute)}` : null
}

const meridiem = "(a\\.?m\\.?|p\\.?m\\.?)(?![\\p{L}])"
const timePatterns: ReadonlyArray<RegExp> = [
  new RegExp(`(?<![\\p{N}:.])(\\d{1,2}):(\\d{2})(?![\\p{N}:])(?:\\s*${meridiem})?`, "gu"),
  new RegExp(`(?<![\\p{N}:.])(\\d{1,2})()\\s*${meridiem}`, "gu"),
  /(?<![\p{L}])(?:at|o|godz\.?|godzina|godzinie|around|about|okolo)\s+(\d{1,2})(?:[.:](\d{2}))?(?![\p{N}.:\/-])()/gu
]

/** Every time in the text, in order of position. */
export const timesIn = (
  text: string,
  exclude: ReadonlyArray<{ start: number; end: number }> = []
): ReadonlyArray<FoundTime> => {
  const folded = fold(text)
  const found: Array<FoundTime> = []
  const taken = [...exclude]
  const overlaps = (start: number, end: number) => taken.some((d) => start < d.end && d.start < end)
  for (const pattern of timePatterns) {
    for (const m of folded.matchAll(pattern)) {
      const start = m.index
      const end = start + m[0].length
      if (overlaps(start, end)) continue
      const minute = m[2] === undefined || m[2] === "" ? 0 : Number(m[2])
      const time = to24(Number(m[1]), minute, m[3] === "" ? undefined : m[3])
      if (time === null) continue
      found.push({ time, start, end })
      taken.push({ start, end })
    }
  }
  for (const [word, time] of [
    ["noon", "12:00"],
    ["midday", "12:00"],
    ["midnight", "00:00"],
    ["poludnie", "12:00"],
    ["poludniu", "12:00"],
    ["polnoc", "00:00"]
  ] as const) {
    for (const m of folded.matchAll(new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, "gu"))) {
      if (!overlaps(m.index, m.index + word.length))
        found.push({ time, start: m.index, end: m.index + word.length })
    }
  }
  return found.sort((a, b) => a.start - b.start)
}

/** The first time in the text (outside the dates in it), as HH:MM, or undefined. */
export const timeIn = (text: string): string | undefined => timesIn(text, datesIn(text))[0]?.time
