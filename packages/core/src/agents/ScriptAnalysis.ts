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
import { type FieldDraft, type PairDraft, ScriptDraft, type StepDraft } from "./ScriptDraft.js"
import { guessLanguage, isPolish, languageCode } from "./ScriptLanguage.js"
import type { Label } from "./ScriptVocabulary.js"

export { guessLanguage } from "./ScriptLanguage.js"

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
  const draft = new ScriptDraft(isPolish(given ?? guessed))
  for (const raw of text.split("\n")) draft.line(raw)
  draft.finish()

  const label = (name: Label): string => draft.labels.get(name) ?? ""
  const finalLanguage = given ?? draft.labels.get("language") ?? guessed
  const agentName = draft.labels.get("name")
  let knowledge = draft.knowledge
  let greeting = draft.labels.get("greeting")
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
      conversation_structure: draft.steps.map(step),
      objections: draft.objections.filter((pair) => pair.first !== "").map(objection),
      required_phrases: draft.required,
      data_fields: draft.fields.map(field),
      custom_data_fields: draft.custom.map(field),
      avoid_topics: draft.avoid,
      persona: label("persona"),
      formality: label("formality"),
      address_form: label("address")
    },
    facts: Object.fromEntries(draft.facts),
    faq: draft.faq.filter((pair) => pair.first !== "").map(faqEntry),
    knowledge: knowledge.map((line) => line.text).join("\n"),
    website: label("website"),
    language: finalLanguage,
    ...(agentName === undefined || agentName === "" ? {} : { agent_name: agentName }),
    generate_with_ai: false,
    enable_booking: false
  }
}
