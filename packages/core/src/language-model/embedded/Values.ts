import { Either } from "effect"
import { normalize as toE164 } from "../../phone-numbers/E164.js"
import { datesIn, timesIn } from "./DateTimes.js"
import { firstPhraseAt, fold, words } from "./Words.js"

/**
 * Values of the plain kinds found in a text: e-mail addresses, phone numbers, numbers and yes/no answers
 * (dates and times are `DateTimes`'). Each reader looks for its own shape only; which field a value
 * belongs to is `FieldExtraction`'s business.
 */

interface Span {
  readonly start: number
  readonly end: number
}

const emailPattern = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu

/** The e-mail addresses in the text, in order, with where they are. */
export const emailsIn = (text: string): ReadonlyArray<Span & { readonly email: string }> =>
  [...text.matchAll(emailPattern)].map((m) => ({
    email: m[0].replace(/^[._%+-]+/, ""),
    start: m.index,
    end: m.index + m[0].length
  }))

const spokenEmail =
  /(?<![\p{L}\p{N}._-])([\p{L}\p{N}._-]+)\s+(?:at|malpa)\s+([\p{L}\p{N}-]+(?:\s+(?:dot|kropka)\s+[\p{L}\p{N}-]+)+)(?![\p{L}\p{N}])/u

/**
 * The first e-mail address in the text: written (`jan@example.com`), else spoken as a transcript has it
 * (`jan at example dot com`, `jan małpa example kropka pl`).
 */
export const emailIn = (text: string): string | undefined => {
  const written = emailsIn(text)[0]?.email
  if (written !== undefined) return written
  const spoken = spokenEmail.exec(fold(text))
  if (spoken === null) return undefined
  const domain = spoken[2]!.split(/\s+(?:dot|kropka)\s+/)
  return `${spoken[1]}@${domain.join(".")}`
}

const phonePattern = /(?<![\p{N}\p{L}+])\+?\d[\d\s().\/-]{5,22}\d(?![\p{N}])/gu

/**
 * The phone numbers in the text: a number in international form (`+48 500 100 200`, `0048…`) as E.164
 * when libphonenumber knows it as valid (else as `+` and its digits when those are 7 to 15); a national
 * number of 9 to 15 digits as its digits, since the country it belongs to is not known. Dates and times
 * are not phone numbers.
 */
export const phonesIn = (text: string): ReadonlyArray<Span & { readonly phone: string }> => {
  const dates = datesIn(text)
  const taken: Array<Span> = [...dates, ...timesIn(text, dates), ...emailsIn(text)]
  const found: Array<Span & { readonly phone: string }> = []
  for (const m of text.matchAll(phonePattern)) {
    const start = m.index
    const end = start + m[0].length
    if (taken.some((span) => start < span.end && span.start < end)) continue
    const raw = m[0]
    const digits = raw.replace(/\D/g, "")
    const international = raw.startsWith("+") || raw.startsWith("00")
    if (international) {
      const national = raw.startsWith("00") ? digits.slice(2) : digits
      const e164 = toE164(`+${national}`)
      if (Either.isRight(e164)) found.push({ phone: e164.right, start, end })
      else if (/^[1-9]\d{6,14}$/.test(national)) found.push({ phone: `+${national}`, start, end })
    } else if (digits.length >= 9 && digits.length <= 15) {
      found.push({ phone: digits, start, end })
    }
  }
  return found
}

/** The first phone number in the text. */
export const phoneIn = (text: string): string | undefined => phonesIn(text)[0]?.phone

const units: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  jeden: 1,
  jedna: 1,
  jedno: 1,
  dwa: 2,
  dwie: 2,
  trzy: 3,
  cztery: 4,
  piec: 5,
  szesc: 6,
  siedem: 7,
  osiem: 8,
  dziewiec: 9,
  dziesiec: 10
}
const tens: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90
}

const digitsPattern = /(?<![\p{L}\p{N}.,])-?\d+(?:,\d{3})*(?:[.,]\d+)?(?![\p{N}])/gu

/**
 * The first number in the text: digits (`42`, `3.5`, `3,5`, `1,250` — a comma before exactly three
 * digits groups thousands) or a number word up to ninety-nine (`two`, `twenty five`, `dwie`, `pięć`).
 * Numbers that are part of a date, a time, a phone number or an e-mail address do not count.
 */
export const numberIn = (text: string): number | undefined => {
  const dates = datesIn(text)
  const taken: Array<Span> = [...dates, ...timesIn(text, dates), ...phonesIn(text), ...emailsIn(text)]
  const candidates: Array<{ readonly at: number; readonly value: number }> = []
  for (const m of text.matchAll(digitsPattern)) {
    const start = m.index
    if (taken.some((span) => start < span.end && span.start < start + m[0].length)) continue
    const grouped = /,\d{3}(?!\d)/.test(m[0]) && !/[.]/.test(m[0])
    const value = Number(grouped ? m[0].replace(/,/g, "") : m[0].replace(",", "."))
    if (Number.isFinite(value)) candidates.push({ at: start, value })
    break
  }
  const folded = fold(text)
  const wordList = words(text)
  for (let i = 0; i < wordList.length; i++) {
    const word = wordList[i]!
    const ten = tens[word]
    const unit = units[word]
    if (ten === undefined && unit === undefined) continue
    const next = wordList[i + 1]
    const value =
      ten !== undefined ? ten + (next !== undefined && (units[next] ?? 10) < 10 ? units[next]! : 0) : unit!
    candidates.push({ at: folded.search(new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, "u")), value })
    break
  }
  return candidates.sort((a, b) => a.at - b.at)[0]?.value
}

const yesPhrases: ReadonlyArray<string> = [
  "yes",
  "yeah",
  "yep",
  "yup",
  "sure",
  "of course",
  "correct",
  "right",
  "absolutely",
  "definitely",
  "certainly",
  "true",
  "ok",
  "okay",
  "i do",
  "i will",
  "i would",
  "please do",
  "tak",
  "jasne",
  "oczywiscie",
  "zgadza sie",
  "pewnie",
  "dobrze",
  "chetnie",
  "prawda"
]
const noPhrases: ReadonlyArray<string> = [
  "no",
  "nope",
  "nah",
  "not",
  "never",
  "false",
  "don't",
  "do not",
  "i won't",
  "negative",
  "nie",
  "nigdy",
  "falsz"
]

/** The first yes or no the text says (`Yes, please` → true; `I don't think so` → false), or undefined. */
export const yesNoIn = (text: string): boolean | undefined => {
  const yes = firstPhraseAt(text, yesPhrases)
  const no = firstPhraseAt(text, noPhrases)
  if (yes === -1 && no === -1) return undefined
  if (yes === -1) return false
  if (no === -1) return true
  return yes < no
}
