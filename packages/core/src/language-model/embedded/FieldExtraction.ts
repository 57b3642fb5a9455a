import { dateIn, timeIn } from "./DateTimes.js"
import type { Kind, Wanted } from "./FieldKinds.js"
import { askedIn, kindOf, labelsOf } from "./FieldKinds.js"
import { isBusy, isGoodbye, isNotInterested, isQuestion, isRefusal } from "./Utterances.js"
import { emailIn, numberIn, phoneIn, yesNoIn } from "./Values.js"
import { fold, words } from "./Words.js"

/**
 * A field's value read out of a conversation's user turns, latest turn first (people correct
 * themselves). A turn gives it when it says so ("my email is …", "my order number is A-17"); when it
 * answers the agent's question for that field (the whole answer, read by the field's kind); or, for the
 * kinds that name themselves (an e-mail, a phone number, a date, a time), when the field is the only one
 * of its kind.
 */

/** A turn of a conversation as the model reads it. */
export interface Turn {
  readonly role: "user" | "assistant"
  readonly text: string
}

/** A value found: of the field's type (a date field's is YYYY-MM-DD). */
export type FieldValue = string | number | boolean

/** The longest text value kept, in characters. */
export const maxTextChars = 200

/** The most words an answer may have to be taken whole as a text field's value. */
export const maxAnswerWords = 20

const fillers =
  /^(?:(?:well|so|um+|uh+|oh|ah|sure|ok|okay|yes|yeah|yep|right|it s|it is|its|that s|that is|this is|i think|i guess|i m|i am|call me|my name is|my name s|tak|no|wiec|to jest|to|jasne|oczywiscie|prosze|nazywam sie|mam na imie|jestem)(?:[\s,:;.!-]+|$))+/

/**
 * A text answer as a value: fillers in front (`Sure, it's …`, `Tak, to …`) and punctuation and thanks at
 * the end taken off; nothing when it is a question, a refusal, a goodbye, only a yes or no, or longer than
 * `maxAnswerWords` words.
 */
export const cleanAnswer = (text: string): string | undefined => {
  if (isQuestion(text) || isRefusal(text) || isGoodbye(text) || isBusy(text) || isNotInterested(text))
    return undefined
  const folded = fold(text.trim()).replace(/[’']/g, " ")
  const lead = folded.match(fillers)?.[0].length ?? 0
  const answer = text
    .trim()
    .slice(lead)
    .replace(/[\s,;:-]*(?:thanks|thank you|dziekuje|dziękuję)?[\s.!?,;:]*$/i, "")
    .trim()
  if (answer === "" || words(answer).length === 0 || words(answer).length > maxAnswerWords) return undefined
  return answer.slice(0, maxTextChars).trim()
}

/**
 * A value of the field's kind in the text; a text, name, date or time field answered outright takes the
 * answer as text when it is not of the kind's shape (`next Tuesday`).
 */
const readKind = (wanted: Wanted, kind: Kind, text: string, answered: boolean): FieldValue | undefined => {
  const asText = (): string | undefined =>
    answered && wanted.type === "string" ? cleanAnswer(text) : undefined
  switch (kind) {
    // an answer that is no e-mail or phone number is not taken for one
    case "email":
      return emailIn(text)
    case "phone":
      return phoneIn(text)
    case "date": {
      const found = dateIn(text)
      if (wanted.type === "date") return found?.iso ?? undefined
      return found === undefined ? asText() : (found.iso ?? found.phrase)
    }
    case "time":
      return timeIn(text) ?? asText()
    case "number":
      return numberIn(text)
    case "boolean":
      return yesNoIn(text)
    case "name":
    case "text":
      return asText()
  }
}

/** `first name` takes a name's first word, `last name` and `surname` its last. */
const partOfName = (wanted: Wanted, name: string): string => {
  const label = ` ${labelsOf(wanted)[0] ?? ""} `
  const parts = name.split(/\s+/)
  if (parts.length < 2) return name
  if (/ (?:first|given|imie) /.test(label)) return parts[0]!
  if (/ (?:last|family|surname|nazwisko) /.test(label)) return parts.at(-1)!
  return name
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const verbs = "(?:is|are|was|will be|would be|[’']s|:|=|to|jest|brzmi)"
const possessive = "(?:my|our|the|moj|moja|moje|nasz|nasza|nasze)"

/** Where a clause about the speaker starts again: the value said before it ends there. */
const clauseEnd =
  /[!?;\n]|\.(?=\s|$)|,?\s+(?:and|but|ale|oraz|i|a)\s+(?:my|i|i[’']m|im|moj|moja|moje|mam|jestem)(?![\p{L}])|,\s*(?:my|moj|moja|moje)(?![\p{L}])/u

/** The patterns of a field's statements ("my <field> is"), each ending where the value starts. */
const statementPatterns = (wanted: Wanted, kind: Kind): ReadonlyArray<RegExp> => {
  const phrases = labelsOf(wanted).map((label) => fold(label).split(" ").map(escape).join("[\\s_-]+"))
  if (kind === "name") phrases.push("name", "imie", "nazwisko")
  const patterns = phrases.map(
    (phrase) =>
      new RegExp(
        `(?:^|(?<=[^\\p{L}\\p{N}\\s])\\s*|(?<![\\p{L}\\p{N}])${possessive}\\s+)${phrase}\\s*${verbs}\\s*`,
        "gu"
      )
  )
  if (kind === "name") patterns.push(/(?<![\p{L}])(?:nazywam sie|mam na imie|call me)\s+/gu)
  return patterns
}

/** The statements of a field in a turn, each the words said after it, in order. */
const statedIn = (patterns: ReadonlyArray<RegExp>, text: string, folded: string): ReadonlyArray<string> => {
  const said: Array<{ readonly at: number; readonly value: string }> = []
  for (const pattern of patterns) {
    for (const m of folded.matchAll(pattern)) {
      const at = m.index + m[0].length
      said.push({ at, value: afterStatement(text, at) })
    }
  }
  return said
    .filter(({ value }) => value !== "")
    .sort((a, b) => a.at - b.at)
    .map(({ value }) => value)
}

const afterStatement = (text: string, start: number): string => {
  const rest = text.slice(start)
  const end = rest.search(clauseEnd)
  return (end === -1 ? rest : rest.slice(0, end)).trim()
}

/** The field's value from one statement's words. */
const fromStatement = (wanted: Wanted, kind: Kind, said: string): FieldValue | undefined => {
  if (kind === "name") {
    const name = cleanAnswer(said)
    return name === undefined ? undefined : partOfName(wanted, name)
  }
  return readKind(wanted, kind, said, true)
}

/** Kinds whose values name themselves: found anywhere when the field is the only one of its kind. */
const selfEvident = new Set<Kind>(["email", "phone", "date", "time"])

/** A conversation prepared for reading several fields: each turn folded, and what the turn before asked. */
export interface Reading {
  readonly turns: ReadonlyArray<Turn>
  readonly among: ReadonlyArray<Wanted>
  readonly folded: ReadonlyArray<string>
  /** For each user turn, the field (by name) the assistant turn just before it asked for. */
  readonly asked: ReadonlyArray<string | undefined>
}

/** The conversation prepared for reading the fields `among`. */
export const reading = (turns: ReadonlyArray<Turn>, among: ReadonlyArray<Wanted>): Reading => ({
  turns,
  among,
  folded: turns.map((turn) => (turn.role === "user" ? fold(turn.text) : "")),
  asked: turns.map((turn, i) => {
    const before = turns[i - 1]
    return turn.role === "user" && before?.role === "assistant"
      ? askedIn(before.text, among)?.name
      : undefined
  })
})

/** The value of a field in a prepared conversation (see `valueOf`). */
export const valueIn = (wanted: Wanted, read: Reading): FieldValue | undefined => {
  const kind = kindOf(wanted)
  const alone = selfEvident.has(kind) && read.among.filter((other) => kindOf(other) === kind).length <= 1
  const patterns = statementPatterns(wanted, kind)
  for (let i = read.turns.length - 1; i >= 0; i--) {
    const turn = read.turns[i]!
    if (turn.role !== "user") continue
    const stated = statedIn(patterns, turn.text, read.folded[i]!)
    for (const said of [...stated].reverse()) {
      const value = fromStatement(wanted, kind, said)
      if (value !== undefined) return value
    }
    if (read.asked[i] === wanted.name) {
      const value = readKind(wanted, kind, turn.text, true)
      if (value !== undefined) return value
    }
    if (alone) {
      const value = readKind(wanted, kind, turn.text, false)
      if (value !== undefined) return value
    }
  }
  return undefined
}

/**
 * The value of `wanted` in the conversation, or undefined. `among` are the fields being gathered
 * together: a question of the agent is attributed to the one it names best, and a self-evident value
 * (an e-mail, …) to the only field of its kind.
 */
export const valueOf = (
  wanted: Wanted,
  turns: ReadonlyArray<Turn>,
  among: ReadonlyArray<Wanted>
): FieldValue | undefined => valueIn(wanted, reading(turns, among))

/** The values found of each field, by name (fields not found left out). */
export const valuesOf = (
  fields: ReadonlyArray<Wanted>,
  turns: ReadonlyArray<Turn>
): ReadonlyMap<string, FieldValue> => {
  const read = reading(turns, fields)
  const found = new Map<string, FieldValue>()
  for (const field of fields) {
    const value = valueIn(field, read)
    if (value !== undefined) found.set(field.name, value)
  }
  return found
}
