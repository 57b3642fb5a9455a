import { contentWords, coverage, humanize, words } from "./Words.js"

/**
 * What kind of value a data field (or a function's parameter) holds, read from its type and the words of
 * its name (then of its description): an e-mail, a phone number, a date, a time, a number, a yes/no, a
 * person's name, or free text. And which field a question of the agent asks for.
 */

/** A value the model looks for: a data field, a function's parameter, a property of a structured answer. */
export interface Wanted {
  readonly name: string
  readonly description: string | null
  readonly type: "string" | "number" | "boolean" | "date"
}

export type Kind = "email" | "phone" | "date" | "time" | "number" | "boolean" | "name" | "text"

const kindWords: ReadonlyArray<readonly [Kind, ReadonlyArray<string>]> = [
  ["email", ["email", "mail", "e mail", "emailaddress"]],
  [
    "phone",
    ["phone", "telephone", "mobile", "cell", "tel", "telefon", "telefonu", "komorka", "msisdn", "phonenumber"]
  ],
  ["date", ["date", "day", "birthday", "dob", "data", "dzien", "dnia", "urodzin", "urodzenia"]],
  ["time", ["time", "hour", "godzina", "godziny", "godz"]],
  ["name", ["name", "firstname", "lastname", "fullname", "surname", "imie", "nazwisko", "nazwa"]]
]

/** Names of things that are not a person's name (`company name` is free text). */
const notPersons = new Set([
  "company",
  "business",
  "firm",
  "product",
  "file",
  "street",
  "firma",
  "firmy",
  "pet",
  "project"
])

const kindFromWords = (text: string): Kind | undefined => {
  const list = words(humanize(text))
  const joined = ` ${list.join(" ")} `
  for (const [kind, markers] of kindWords) {
    if (!markers.some((marker) => joined.includes(` ${marker} `))) continue
    if (kind === "name" && list.some((word) => notPersons.has(word))) continue
    return kind
  }
  return undefined
}

/** The kind of value a field holds: its type decides for numbers, yes/no and dates; words for text. */
export const kindOf = (wanted: Wanted): Kind => {
  switch (wanted.type) {
    case "boolean":
      return "boolean"
    case "number":
      return "number"
    case "date":
      return "date"
    case "string":
      return (
        kindFromWords(wanted.name) ??
        (wanted.description === null ? undefined : kindFromWords(wanted.description)) ??
        "text"
      )
  }
}

/** Words that say whose a value is and can be left out when people name it (`customer email` → `email`). */
const ownerWords = new Set([
  "customer",
  "caller",
  "client",
  "user",
  "contact",
  "lead",
  "person",
  "klient",
  "klienta"
])

/**
 * The names people use for a field, most specific first: its name as words (`customer email`), and
 * without the owner's word (`email`).
 */
export const labelsOf = (wanted: Wanted): ReadonlyArray<string> => {
  const full = humanize(wanted.name)
  const bare = full
    .split(" ")
    .filter((word) => !ownerWords.has(word))
    .join(" ")
  return [...new Set([full, bare].filter((label) => label !== ""))]
}

/** What the field is called when asked for: its name as words. */
export const labelOf = (wanted: Wanted): string => labelsOf(wanted)[0] ?? wanted.name

/** The sentence of an agent's message that asks: the last one with a question mark, else the last one. */
export const questionOf = (text: string): string => {
  const sentences = text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "")
  return [...sentences].reverse().find((sentence) => sentence.includes("?")) ?? sentences.at(-1) ?? ""
}

/** How well a question names a field: the best share of the words of its name, or of its description. */
const mentionScore = (question: ReadonlySet<string>, wanted: Wanted): number => {
  const nameScores = labelsOf(wanted).map((label) => coverage(contentWords(label), question))
  const described =
    wanted.description === null ? 0 : coverage(contentWords(wanted.description), question) >= 0.6 ? 0.6 : 0
  return Math.max(0, ...nameScores.map((score) => (score >= 0.5 ? score : 0)), described)
}

/**
 * The field an agent's message asks for, among `candidates`: the one whose name (or description) its
 * question sentence names best, at least half of its words; the first on a tie; undefined when none.
 */
export const askedIn = (assistantText: string, candidates: ReadonlyArray<Wanted>): Wanted | undefined => {
  const question = new Set(contentWords(questionOf(assistantText)))
  if (question.size === 0) return undefined
  let best: Wanted | undefined
  let bestScore = 0
  for (const candidate of candidates) {
    const score = mentionScore(question, candidate)
    if (score > bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return best
}
