/**
 * Reads a plain-text call script, as sales and support teams write them in English or Polish, into the
 * preview body that `POST /agents/from-script` accepts. Deterministic, pure and total: any string gives
 * a valid `CallScriptRequest` with a non-empty greeting, and nothing throws.
 *
 * How a script is read, line by line (CRLF and CR count as line breaks, a leading BOM is dropped, each
 * line is trimmed, a tab indents to the next multiple of four columns):
 * - Keys are matched case-insensitively and without diacritics (`Zastrzezenia` = `Zastrzeżenia`),
 *   ignoring a leading Markdown `#` heading mark, a `**bold**` wrapper and `(parenthesised)`
 *   words; a key ends at the first `:` that is followed by whitespace or the end of the line (so
 *   `https://…` and `10:30` are not keys).
 * - List markers: `-`, `*`, `+`, `–`, `—` followed by whitespace, `•`-like symbols, and numbers `1.`,
 *   `1)`, `Step 1:`, `Krok 1:`, `Etap 1:` (1-3 digits followed by whitespace). A line of three or more of
 *   `-=_*~.#•·–—` is a separator and counts as a blank line.
 * - Labels (one value each): Goal/Objective/Purpose/Cel, Greeting/Opening/Powitanie/Przywitanie,
 *   Persona/Role/Rola, Tone/Formality/Style/Ton/Styl, Address/Form of address/Forma zwracania się,
 *   Direction/Kierunek, Name/Agent name/Nazwa/Nazwa agenta, Language/Język, Website/URL/Strona.
 *   The first non-empty value wins; a later duplicate goes to `knowledge` as `Key: value`. A label with
 *   nothing after the colon takes the lines right below it (until a blank line, a list item, a header,
 *   a label or a pair key), joined with spaces. A bulleted top-level line holding a label is that label.
 * - `Address:` whose value holds a digit is a postal address: it becomes the fact `Address`.
 * - Direction is inbound when its value contains inbound/incoming/przychodz…, outbound for
 *   outbound/outgoing/wychodz… (the earliest wins); anything else leaves the default `outbound` and
 *   goes to `knowledge`.
 * - The name is cut to 255 characters; `agent_voice`, `scheduler_connection_id` are never set and
 *   `generate_with_ai`, `enable_booking` stay false: a script cannot choose a voice or a calendar.
 * - Sections start at a header line, with or without a value after the colon: Steps/Conversation/Plan/
 *   Flow/Structure/Kroki/Plan rozmowy/Przebieg/Etapy; Objections/Zastrzeżenia/Obiekcje; Required
 *   phrases/Must say/Mandatory phrases/Obowiązkowe zwroty/Zwroty; Collect/Data/Fields/Zbierz/Dane/Pola;
 *   Custom data/Custom fields/Dodatkowe dane (→ `custom_data_fields`); Avoid/Topics to avoid/Never
 *   say/Unikaj; FAQ/Questions/Q&A/Pytania; Facts/Key facts/Details/Fakty/Informacje; Knowledge/Notes/
 *   Background/Context/Wiedza/Notatki/Uwagi (lines kept as written, into `knowledge`). `Data` is not a
 *   header when the language argument, else the guess, is Polish (there it means "date").
 * - A section holds every line up to a blank line. After a blank line it goes on only while lines look
 *   like its items: list items; `Q:`/`A:`/`Objection:`/`Response:` lines or `… -> …` pairs in Objections
 *   and FAQ; lines with a `?` in FAQ; `key: value` lines that are not labels in Facts; anything but a
 *   label in Knowledge. Any other line ends it and is read as a top-level line. In Required phrases,
 *   Collect, Custom data and Avoid an unbulleted header or label always ends the section; in
 *   the other sections a header with a value is an item unless it follows a blank line; a bare header
 *   always starts a new section. Repeated sections append to the same list, in order.
 * - A line indented deeper than the item above it (no blank line between) continues that item: a
 *   step's description (sub-bullets joined with `; `), a pair's answer, a field's description, a
 *   fact's value, or the phrase itself.
 * - Steps: an item `Title: text` is `{title, description}`, other items are plain strings; a wholly
 *   quoted item is never split. Top-level numbered AND bulleted lines are steps too, in script order.
 * - Objections and FAQ are pairs: `Objection:`/`Obiekcja:`/`Q:`/`Question:`/`Pytanie:` (in sections
 *   also `Customer:`/`Client:`/`Klient:`/`P:`) start one, `Response:`/`Reply:`/`Answer:`/`A:`/
 *   `Odpowiedź:` (in sections also `Agent:`/`You:`/`O:`) answer it; `"…" -> "…"` (also `→`, `=>`) is a
 *   whole pair; in Objections `objection: response` is a pair; in FAQ `question? answer` splits after
 *   the `?`. A plain line answers an unanswered pair, else starts a new one; a second answer is
 *   appended to the first. An objection or question with no answer is kept with an empty answer for
 *   the user to fill in; an answer with no question is kept in `knowledge`. A top-level
 *   `Objection:`/`Q:` line opens that section.
 * - Collect items: `Name (type): description`, type one of string/text/tekst, number/numeric/integer/
 *   liczba, boolean/yes/no/tak/nie, date/data; a bare name stays a plain string. The value after a
 *   Collect, Custom data or Avoid header is split on `,` and `;`; other inline values are one item.
 * - Facts: `key: value` (or `key - value`, `key = value`); the first value of a key wins, a duplicate
 *   or an item without a separator goes to `knowledge`. A top-level `Key: value` line with an unknown
 *   short key (at most 5 words and 40 characters of letters, digits, spaces and `'&/()-_`) is a fact.
 *   A `__proto__` key, which a decoded Record cannot hold, goes to `knowledge`.
 * - Every other top-level line with a letter or digit is free text: the first becomes the greeting
 *   when no greeting label has a value; the rest, Markdown headings and unknown empty `Key:` lines go to
 *   `knowledge`, joined with newlines in script order. Lines with no letter or digit are dropped.
 * - With no greeting at all: "Hello, this is {name}." / "Hello!" in English, "Dzień dobry, tu {name}."
 *   / "Dzień dobry!" when the language is Polish.
 * - Surrounding quotes ("…", '…', “…”, „…”, «…», ‘…’) are stripped from every value when the inside
 *   holds no further such quote; everything is trimmed; empty items are dropped.
 * - `language`: the argument when it is a valid code (`PL` → `pl`, `pl_PL` → `pl-PL`, `Polish`/`polski`
 *   → `pl`, `English`/`angielski` → `en`), else a valid `Language:` label, else `guessLanguage` (Polish when words with Polish-only letters or
 *   common Polish words outnumber common English words).
 */
import type { CallScriptRequest, DataField, FaqEntry, Objection, ScriptStep } from "./CallScript.js"

type Section =
  "steps" | "objections" | "required" | "collect" | "custom" | "avoid" | "faq" | "facts" | "knowledge"
type Label =
  "goal" | "greeting" | "persona" | "formality" | "address" | "direction" | "name" | "language" | "website"
type FieldType = "string" | "number" | "boolean" | "date"

/**
 * Sections of short list items (phrases, fields, topics), where a `Key: value` line is never an item;
 * steps may be `Title: description` lines, pairs and facts are `key: value` by nature.
 */
const listedSections: ReadonlySet<Section> = new Set<Section>(["required", "collect", "custom", "avoid"])
type PairRole = "objection" | "question" | "reply"

const table = <K extends string>(entries: ReadonlyArray<readonly [K, string]>): ReadonlyMap<string, K> =>
  new Map(entries.flatMap(([kind, names]) => names.split("|").map((name) => [name, kind] as const)))

const sectionNames = table<Section>([
  [
    "steps",
    "steps|conversation|conversation structure|conversation flow|conversation plan|call flow|call structure|flow|plan|structure|outline|kroki|plan rozmowy|przebieg|przebieg rozmowy|struktura|struktura rozmowy|etapy|etapy rozmowy"
  ],
  [
    "objections",
    "objections|objection handling|handling objections|zastrzezenia|obiekcje|obsluga obiekcji|obsluga zastrzezen|sprzeciwy"
  ],
  [
    "required",
    "required phrases|must say|mandatory phrases|key phrases|phrases|obowiazkowe zwroty|obowiazkowe frazy|wymagane zwroty|wymagane frazy|zwroty|frazy|musisz powiedziec"
  ],
  [
    "collect",
    "collect|data|data fields|data to collect|collect data|gather|fields|zbierz|zbierz dane|dane|dane do zebrania|zbierane dane|pola"
  ],
  [
    "custom",
    "custom data|custom fields|custom data fields|additional data|dodatkowe dane|dodatkowe pola|pola wlasne"
  ],
  [
    "avoid",
    "avoid|avoid topics|topics to avoid|do not mention|don't mention|never say|forbidden topics|unikaj|tematy do unikania|zakazane tematy|nie wspominaj"
  ],
  [
    "faq",
    "faq|faqs|q&a|questions|frequently asked questions|common questions|pytania|czeste pytania|pytania i odpowiedzi"
  ],
  ["facts", "facts|key facts|details|fakty|kluczowe fakty|informacje"],
  ["knowledge", "knowledge|notes|background|context|wiedza|notatki|kontekst|uwagi|baza wiedzy"]
])

const labelNames = table<Label>([
  ["goal", "goal|call goal|goal of the call|objective|purpose|aim|cel|cel rozmowy|cel polaczenia"],
  ["greeting", "greeting|opening|opener|opening line|first message|powitanie|przywitanie|otwarcie"],
  ["persona", "persona|role|agent persona|rola|osobowosc"],
  ["formality", "tone|formality|style|tone of voice|ton|formalnosc|styl|ton rozmowy"],
  ["address", "address|address form|form of address|forma zwracania sie|zwracanie sie|forma grzecznosciowa"],
  ["direction", "direction|call direction|call type|kierunek|kierunek rozmowy|kierunek polaczenia"],
  ["name", "name|agent name|nazwa|nazwa agenta|imie agenta"],
  ["language", "language|jezyk"],
  ["website", "website|web site|site|url|www|strona|strona www|strona internetowa"]
])

/** Pair keys understood anywhere. */
const pairNames = table<PairRole>([
  ["objection", "objection|obiekcja|zastrzezenie|sprzeciw"],
  ["question", "q|question|pytanie"],
  ["reply", "response|reply|rebuttal|answer|a|odpowiedz|reakcja"]
])

/** Pair keys understood only inside Objections and FAQ, where they cannot be mistaken for facts. */
const sectionPairNames = new Map<string, PairRole>([
  ...pairNames,
  ...table<PairRole>([
    ["objection", "customer|client|caller|they say|klient|klientka|rozmowca|p"],
    ["reply", "agent|you|we|ty|konsultant|o"]
  ])
])

const fieldTypes = table<FieldType>([
  ["string", "string|text|tekst"],
  ["number", "number|numeric|integer|liczba"],
  ["boolean", "boolean|bool|yes/no|tak/nie"],
  ["date", "date|data"]
])

const languageNames = table([
  ["en", "english|angielski"],
  ["pl", "polish|polski"]
])

const languagePattern = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

/** Common Polish words (folded: no diacritics), rare in English text. */
const polishWords = new Set(
  (
    "nie jest czy jak tak oraz sie ze dzien dobry pan pani pana panstwo panstwa prosze jestem dlaczego kiedy " +
    "gdzie ktory ktora ktore bardzo dla albo jesli jezeli wiec tylko mamy moze mozemy dziekuje rozmowa " +
    "rozmowy klient klienta kroki powitanie zbierz unikaj fakty cel tu jestesmy twoj wasz"
  ).split(" ")
)
/** Common English words, to weigh against the Polish ones. */
const englishWords = new Set(
  (
    "the and you your is are this that with for we of in be have what can please thank thanks hello hi our " +
    "it will would not yes call if about from an my they their"
  ).split(" ")
)
const polishLetters = /[ąćęłńśźż]/

/**
 * Guesses a script's language: `pl` when its distinct Polish-looking words (a word holding a letter only
 * Polish uses, ą ć ę ł ń ś ź ż, or one of ~50 common Polish words such as nie, jest, czy, dzień, dobry)
 * outnumber its distinct common English words (the, and, you, is, …), else `en`. A Polish street name in
 * an English script therefore stays English, and `Dzień dobry` alone is Polish.
 */
export const guessLanguage = (text: string): "pl" | "en" => {
  const polish = new Set<string>()
  const english = new Set<string>()
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    if (word === "") continue
    if (englishWords.has(word)) english.add(word)
    else if (polishLetters.test(word) || polishWords.has(fold(word))) polish.add(word)
  }
  return polish.size > english.size ? "pl" : "en"
}

/** A language code from a code or a language name, or undefined when it is neither. */
const languageCode = (value: string): string | undefined => {
  const trimmed = value.trim().replace(/_/g, "-")
  if (trimmed.length > 35) return undefined
  const named = languageNames.get(fold(trimmed))
  if (named !== undefined) return named
  const [primary = "", ...rest] = trimmed.split("-")
  const code = [primary.toLowerCase(), ...rest].join("-")
  return languagePattern.test(code) ? code : undefined
}

const isPolish = (language: string): boolean => language === "pl" || language.startsWith("pl-")

/** A key as compared against the tables: lower case, no diacritics, no parenthesised words. */
const fold = (key: string): string =>
  key
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[łŁ]/g, "l")
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/\([^()]*\)/g, " ")
    .replace(/\s+/g, " ")
    .trim()

/** The line without a Markdown heading mark or a bold wrapper at its start. */
const bare = (line: string): string =>
  line
    .replace(/^#{1,6}\s*/, "")
    .replace(/^\*\*(.+?)\*\*/, "$1")
    .trim()

/** `key: value`, the colon followed by whitespace or the end of the line. */
const splitKey = (line: string): { readonly key: string; readonly value: string } | undefined => {
  const colon = line.indexOf(":")
  if (colon <= 0) return undefined
  const next = line.charAt(colon + 1)
  if (next !== "" && next.trim() !== "") return undefined
  const key = line.slice(0, colon).trim()
  return key === "" ? undefined : { key, value: line.slice(colon + 1).trim() }
}

const quotePairs: ReadonlyArray<readonly [string, string]> = [
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
const unquote = (value: string): string => {
  const text = value.trim()
  if (text.length < 2) return text
  for (const [open, close] of quotePairs) {
    if (!text.startsWith(open) || !text.endsWith(close)) continue
    const inside = text.slice(open.length, text.length - close.length)
    if (!inside.includes(open) && !inside.includes(close)) return inside.trim()
  }
  return text
}

const usable = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

const isSeparator = (line: string): boolean => /^[-=_*~.#•·–—]{3,}$/.test(line.replace(/\s+/g, ""))

const isShortKey = (key: string): boolean =>
  key.length <= 40 && key.split(/\s+/).length <= 5 && /^[\p{L}\p{N}][\p{L}\p{N}\s'&/()_-]*$/u.test(key)

const indentOf = (raw: string): number => {
  let column = 0
  for (const char of raw) {
    if (char === "\t") column += 4 - (column % 4)
    else if (char.trim() === "") column += 1
    else break
  }
  return column
}

interface Marker {
  readonly numbered: boolean
  readonly content: string
}

const bulletMark = /^(?:[-*+–—](?:\s+|$)|[•·▪◦‣●○■►➢✓✔]\s*)/
const numberMark = /^(?:\d{1,3}[.)]|(?:step|krok|etap)\s*\d{1,3}\s*[:.)–-]?)(?:\s+|$)/i

const listMarker = (line: string): Marker | undefined => {
  const numbered = numberMark.exec(line)
  if (numbered !== null) return { numbered: true, content: line.slice(numbered[0].length).trim() }
  const bullet = bulletMark.exec(line)
  return bullet === null ? undefined : { numbered: false, content: line.slice(bullet[0].length).trim() }
}

const arrow = /->|→|=>|⇒/

/** `left -> right`, or undefined when there is no arrow or nothing before it. */
const splitArrow = (text: string): { readonly left: string; readonly right: string } | undefined => {
  const match = arrow.exec(text)
  if (match === null) return undefined
  const left = unquote(text.slice(0, match.index))
  return left === "" ? undefined : { left, right: unquote(text.slice(match.index + match[0].length)) }
}

/** `question? answer`, splitting after the first `?` (and a closing quote after it). */
const splitQuestion = (text: string): { readonly question: string; readonly answer: string } | undefined => {
  const mark = /\?["”“'’»]?/.exec(text)
  if (mark === null) return undefined
  const end = mark.index + mark[0].length
  const answer = unquote(text.slice(end))
  const question = unquote(text.slice(0, end))
  return answer === "" || question === "" ? undefined : { question, answer }
}

const directionOf = (value: string): "inbound" | "outbound" | undefined => {
  const match = /inbound|incoming|przychodz|outbound|outgoing|wychodz/.exec(fold(value))
  if (match === null) return undefined
  return match[0] === "outbound" || match[0] === "outgoing" || match[0] === "wychodz" ? "outbound" : "inbound"
}

interface StepDraft {
  title: string
  description: string
}
interface PairDraft {
  first: string
  second: string
}
interface FieldDraft {
  name: string
  description: string
  readonly type: FieldType | undefined
}
interface KnowledgeLine {
  readonly text: string
  readonly candidate: boolean
}
/** The item a deeper-indented line continues. */
interface OpenItem {
  readonly indent: number
  readonly append: (text: string, marked: boolean) => void
}

const join = (before: string, text: string, separator = " "): string =>
  before === "" ? text : `${before}${separator}${text}`

/** Everything read from a script, before defaults are applied. */
class Reading {
  readonly labels = new Map<Label, string>()
  readonly steps: Array<StepDraft> = []
  readonly objections: Array<PairDraft> = []
  readonly faq: Array<PairDraft> = []
  readonly required: Array<string> = []
  readonly avoid: Array<string> = []
  readonly fields: Array<FieldDraft> = []
  readonly custom: Array<FieldDraft> = []
  readonly facts = new Map<string, string>()
  readonly knowledge: Array<KnowledgeLine> = []

  private section: Section | undefined
  private block: { readonly label: Label; readonly key: string; readonly parts: Array<string> } | undefined
  private afterBlank = false
  private open: OpenItem | undefined
  private pair: PairDraft | undefined

  constructor(private readonly polish: boolean) {}

  line(raw: string): void {
    const line = raw.trim()
    if (line === "" || isSeparator(line)) {
      this.afterBlank = true
      this.endBlock()
      return
    }
    this.read(line, indentOf(raw))
    this.afterBlank = false
  }

  finish(): void {
    this.endBlock()
  }

  private read(line: string, indent: number): void {
    const marker = listMarker(line)
    const header = marker === undefined ? this.header(line) : undefined
    if (this.block !== undefined) {
      // `Hi John: …` under `Greeting:` is the greeting, not a fact: only known keys end the block
      if (marker === undefined && header === undefined && !this.isKnownKey(line)) {
        const part = unquote(line)
        if (part !== "") this.block.parts.push(part)
        return
      }
      this.endBlock()
    }
    // In a section whose items are list items, an unbulleted header or label is not an item: it ends the
    // section (a `Collect: …` line right under a list of required phrases starts the data fields).
    if (this.section !== undefined && marker === undefined && listedSections.has(this.section)) {
      if (header !== undefined) return this.openSection(header)
      if (this.isKnownKey(line)) {
        this.section = undefined
        this.open = undefined
      }
    }
    if (this.section !== undefined) {
      if (header !== undefined && (header.rest === "" || this.afterBlank)) return this.openSection(header)
      if (!this.afterBlank || this.continues(this.section, line, marker)) {
        return this.sectionLine(this.section, line, indent, marker)
      }
      this.section = undefined
      this.open = undefined
    }
    if (header !== undefined) return this.openSection(header)
    this.topLine(line, indent, marker)
  }

  private header(line: string): { readonly section: Section; readonly rest: string } | undefined {
    const text = bare(line)
    const split = splitKey(text)
    const key = fold(split === undefined ? text.replace(/:$/, "") : split.key)
    const section = sectionNames.get(key)
    if (section === undefined || (this.polish && key === "data")) return undefined
    return { section, rest: split?.value ?? "" }
  }

  private isKnownKey(line: string): boolean {
    const split = splitKey(bare(line))
    if (split === undefined) return false
    const key = fold(split.key)
    return labelNames.has(key) || pairNames.has(key)
  }

  /** Whether a line after a blank line still belongs to the section. */
  private continues(section: Section, line: string, marker: Marker | undefined): boolean {
    if (marker !== undefined) return true
    const split = splitKey(bare(line))
    const key = split === undefined ? undefined : fold(split.key)
    switch (section) {
      case "facts":
        return split !== undefined && !this.isKnownKey(line)
      case "knowledge":
        return !this.isKnownKey(line)
      case "objections":
      case "faq":
        if (key !== undefined && sectionPairNames.has(key)) return true
        if (this.isKnownKey(line)) return false
        return splitArrow(line) !== undefined || (section === "faq" && line.includes("?"))
      default:
        return false
    }
  }

  private openSection(header: { readonly section: Section; readonly rest: string }): void {
    this.section = header.section
    this.open = undefined
    this.pair = undefined
    if (header.rest === "") return
    const listed = header.section === "collect" || header.section === "custom" || header.section === "avoid"
    for (const part of listed ? header.rest.split(/[,;]/) : [header.rest]) {
      const text = part.trim()
      if (text !== "") this.sectionLine(header.section, text, 0, listMarker(text))
    }
  }

  private sectionLine(section: Section, line: string, indent: number, marker: Marker | undefined): void {
    const content = marker?.content ?? line
    if (section === "knowledge") {
      this.knowledge.push({ text: line, candidate: false })
      return
    }
    if (this.open !== undefined && indent > this.open.indent && !this.afterBlank) {
      const text = unquote(content)
      if (text !== "") this.open.append(text, marker !== undefined)
      return
    }
    switch (section) {
      case "steps":
        return this.addStep(content, indent)
      case "required":
        return this.addText(this.required, content, indent)
      case "avoid":
        return this.addText(this.avoid, content, indent)
      case "collect":
        return this.addField(this.fields, content, indent)
      case "custom":
        return this.addField(this.custom, content, indent)
      case "facts":
        return this.factItem(content, indent)
      case "objections":
      case "faq":
        return this.pairLine(section, content, indent, marker !== undefined)
    }
  }

  private topLine(line: string, indent: number, marker: Marker | undefined): void {
    const open = this.open
    this.open = undefined
    if (marker?.numbered === true) return this.addStep(marker.content, indent)
    const content = marker?.content ?? line
    const split = splitKey(bare(content))
    const key = split === undefined ? undefined : fold(split.key)
    const label = key === undefined ? undefined : labelNames.get(key)
    if (split !== undefined && label !== undefined) {
      if (split.value === "" && marker === undefined) {
        this.block = { label, key: split.key, parts: [] }
      } else this.setLabel(label, split.key, split.value)
      return
    }
    const role = key === undefined ? undefined : pairNames.get(key)
    if (split !== undefined && role !== undefined) {
      if (role === "reply") {
        this.knowledge.push({ text: content, candidate: false })
        return
      }
      this.section = role === "objection" ? "objections" : "faq"
      this.pair = undefined
      return this.startPair(this.section, split.value, indent)
    }
    if (marker !== undefined) return this.addStep(marker.content, indent)
    if (open !== undefined && indent > open.indent && !this.afterBlank) {
      this.open = open
      const text = unquote(line)
      if (text !== "") open.append(text, false)
      return
    }
    if (split !== undefined && isShortKey(split.key)) {
      if (split.value === "") this.knowledge.push({ text: line, candidate: false })
      else this.addFact(split.key, split.value, line)
      return
    }
    if (line.startsWith("#")) {
      const heading = line.replace(/^#+/, "").trim()
      if (usable(heading)) this.knowledge.push({ text: heading, candidate: false })
      return
    }
    const text = unquote(line)
    if (usable(text)) this.knowledge.push({ text, candidate: true })
  }

  private endBlock(): void {
    const block = this.block
    if (block === undefined) return
    this.block = undefined
    this.setLabel(block.label, block.key, block.parts.join(" "))
  }

  private setLabel(label: Label, key: string, raw: string): void {
    const value = unquote(raw)
    if (value === "") return
    const keep = (): void => {
      this.knowledge.push({ text: `${key}: ${value}`, candidate: false })
    }
    if (label === "address" && fold(key) === "address" && /\d/.test(value)) {
      return this.addFact(key, value, `${key}: ${value}`)
    }
    let accepted = value
    if (label === "direction") {
      const direction = directionOf(value)
      if (direction === undefined) return keep()
      accepted = direction
    } else if (label === "language") {
      const code = languageCode(value)
      if (code === undefined) return keep()
      accepted = code
    } else if (label === "name") {
      accepted = value.slice(0, 255).trim()
    }
    if (this.labels.has(label)) return keep()
    this.labels.set(label, accepted)
  }

  private addStep(content: string, indent: number): void {
    const whole = unquote(content)
    if (whole === "") return
    const split = whole === content.trim() ? splitKey(bare(whole)) : undefined
    const title = split === undefined ? "" : unquote(split.key)
    const step: StepDraft =
      title === "" ? { title: whole, description: "" } : { title, description: unquote(split?.value ?? "") }
    this.steps.push(step)
    this.open = {
      indent,
      append: (text, marked) => {
        step.description = join(step.description, text, marked ? "; " : " ")
      }
    }
  }

  private addText(list: Array<string>, content: string, indent: number): void {
    const text = unquote(content)
    if (text === "") return
    const index = list.push(text) - 1
    this.open = {
      indent,
      append: (more) => {
        list[index] = join(list[index] ?? "", more)
      }
    }
  }

  private addField(list: Array<FieldDraft>, content: string, indent: number): void {
    const whole = unquote(content)
    if (whole === "") return
    const split = splitKey(whole)
    let name = split?.key ?? whole
    let type: FieldType | undefined
    const typed = /\(([^()]*)\)\s*$/.exec(name)
    if (typed !== null) {
      type = fieldTypes.get(fold(typed[1] ?? ""))
      if (type !== undefined) name = name.slice(0, typed.index)
    }
    name = unquote(name)
    const field: FieldDraft =
      name === ""
        ? { name: whole, description: "", type: undefined }
        : { name, description: unquote(split?.value ?? ""), type }
    list.push(field)
    this.open = {
      indent,
      append: (text) => {
        field.description = join(field.description, text)
      }
    }
  }

  private factItem(content: string, indent: number): void {
    const text = content.trim()
    const split = splitKey(bare(text))
    if (split !== undefined) return this.addFact(split.key, split.value, text, indent)
    const separator = /\s[-–—]\s|=/.exec(text)
    if (separator !== null) {
      const key = text.slice(0, separator.index)
      const value = text.slice(separator.index + separator[0].length)
      return this.addFact(key, value, text, indent)
    }
    if (usable(text)) this.knowledge.push({ text: unquote(text), candidate: false })
  }

  private addFact(rawKey: string, rawValue: string, line: string, indent = 0): void {
    const key = unquote(rawKey)
    const value = unquote(rawValue)
    if (key === "" || value === "") {
      if (usable(line)) this.knowledge.push({ text: line, candidate: false })
      return
    }
    // Schema's Record drops an own `__proto__` key when encoding or decoding, so it cannot be a fact
    if (this.facts.has(key) || key === "__proto__") {
      this.knowledge.push({ text: `${key}: ${value}`, candidate: false })
      return
    }
    this.facts.set(key, value)
    this.open = {
      indent,
      append: (text) => {
        this.facts.set(key, join(this.facts.get(key) ?? "", text))
      }
    }
  }

  private pairLine(section: "objections" | "faq", content: string, indent: number, marked: boolean): void {
    const split = splitKey(bare(content))
    const role = split === undefined ? undefined : sectionPairNames.get(fold(split.key))
    if (split !== undefined && role !== undefined) {
      return role === "reply" ? this.reply(split.value) : this.startPair(section, split.value, indent)
    }
    const arrowed = splitArrow(content)
    if (arrowed !== undefined) {
      this.startPair(section, arrowed.left, indent)
      return this.reply(arrowed.right)
    }
    if (section === "faq") {
      const asked = splitQuestion(content)
      if (asked !== undefined) {
        this.startPair(section, asked.question, indent)
        return this.reply(asked.answer)
      }
    } else if (split !== undefined && split.value !== "" && content.trim() === unquote(content)) {
      this.startPair(section, split.key, indent)
      return this.reply(split.value)
    }
    const pair = this.pair
    if (!marked && pair !== undefined && (pair.first === "" || pair.second === "")) {
      const text = unquote(content)
      if (pair.first === "") pair.first = text
      else pair.second = text
      return
    }
    this.startPair(section, content, indent)
  }

  private startPair(section: "objections" | "faq", first: string, indent: number): void {
    const pair: PairDraft = { first: unquote(first), second: "" }
    ;(section === "objections" ? this.objections : this.faq).push(pair)
    this.pair = pair
    this.open = {
      indent,
      append: (text) => {
        if (pair.first === "") pair.first = text
        else pair.second = join(pair.second, text)
      }
    }
  }

  private reply(raw: string): void {
    const text = unquote(raw)
    if (text === "") return
    const pair = this.pair
    if (pair === undefined) this.knowledge.push({ text, candidate: false })
    else pair.second = join(pair.second, text)
  }
}

const step = (draft: StepDraft): ScriptStep =>
  draft.description === "" ? draft.title : { title: draft.title, description: draft.description }

const field = (draft: FieldDraft): DataField =>
  draft.description === "" && draft.type === undefined
    ? draft.name
    : {
        name: draft.name,
        ...(draft.description === "" ? {} : { description: draft.description }),
        ...(draft.type === undefined ? {} : { type: draft.type })
      }

const objection = (pair: PairDraft): Objection => ({ objection: pair.first, response: pair.second })
const faqEntry = (pair: PairDraft): FaqEntry => ({ question: pair.first, answer: pair.second })

const fallbackGreeting = (language: string, name: string | undefined): string =>
  isPolish(language)
    ? name === undefined
      ? "Dzień dobry!"
      : `Dzień dobry, tu ${name}.`
    : name === undefined
      ? "Hello!"
      : `Hello, this is ${name}.`

/** Reads a plain-text call script into the `POST /agents/from-script` preview body; never throws. */
export const analyze = (script: string, language?: string): CallScriptRequest => {
  const text = (typeof script === "string" ? script : "").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")
  const given = typeof language === "string" ? languageCode(language) : undefined
  const guessed = guessLanguage(text)
  const reading = new Reading(isPolish(given ?? guessed))
  for (const raw of text.split("\n")) reading.line(raw)
  reading.finish()

  const label = (name: Label): string => reading.labels.get(name) ?? ""
  const finalLanguage = given ?? reading.labels.get("language") ?? guessed
  const agentName = reading.labels.get("name")
  let knowledge = reading.knowledge
  let greeting = reading.labels.get("greeting")
  if (greeting === undefined) {
    const first = knowledge.findIndex((line) => line.candidate)
    if (first >= 0) {
      greeting = knowledge[first]?.text
      knowledge = knowledge.filter((_, index) => index !== first)
    }
  }
  greeting = greeting?.trim() || fallbackGreeting(finalLanguage, agentName)

  return {
    agent: {
      agent_goal: label("goal"),
      call_direction: label("direction") === "inbound" ? "inbound" : "outbound",
      greeting,
      conversation_structure: reading.steps.map(step),
      objections: reading.objections.filter((pair) => pair.first !== "").map(objection),
      required_phrases: reading.required,
      data_fields: reading.fields.map(field),
      custom_data_fields: reading.custom.map(field),
      avoid_topics: reading.avoid,
      persona: label("persona"),
      formality: label("formality"),
      address_form: label("address")
    },
    facts: Object.fromEntries(reading.facts),
    faq: reading.faq.filter((pair) => pair.first !== "").map(faqEntry),
    knowledge: knowledge.map((line) => line.text).join("\n"),
    website: label("website"),
    language: finalLanguage,
    ...(agentName === undefined || agentName === "" ? {} : { agent_name: agentName }),
    generate_with_ai: false,
    enable_booking: false
  }
}
