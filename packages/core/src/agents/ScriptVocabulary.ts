/**
 * The words a call script is read by, in English and Polish: section headers, labels, pair keys and
 * field types, each a table from a folded name to what it means (see `ScriptAnalysis` for the reading rules).
 */

export type Section =
  "steps" | "objections" | "required" | "collect" | "custom" | "avoid" | "faq" | "facts" | "knowledge"
export type Label =
  "goal" | "greeting" | "persona" | "formality" | "address" | "direction" | "name" | "language" | "website"
export type FieldType = "string" | "number" | "boolean" | "date"

/**
 * Sections of short list items (phrases, fields, topics), where a `Key: value` line is never an item;
 * steps may be `Title: description` lines, pairs and facts are `key: value` by nature.
 */
export const listedSections: ReadonlySet<Section> = new Set<Section>([
  "required",
  "collect",
  "custom",
  "avoid"
])
export type PairRole = "objection" | "question" | "reply"

export const table = <K extends string>(
  entries: ReadonlyArray<readonly [K, string]>
): ReadonlyMap<string, K> =>
  new Map(entries.flatMap(([kind, names]) => names.split("|").map((name) => [name, kind] as const)))

export const sectionNames = table<Section>([
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

export const labelNames = table<Label>([
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
export const pairNames = table<PairRole>([
  ["objection", "objection|obiekcja|zastrzezenie|sprzeciw"],
  ["question", "q|question|pytanie"],
  ["reply", "response|reply|rebuttal|answer|a|odpowiedz|reakcja"]
])

/** Pair keys understood only inside Objections and FAQ, where they cannot be mistaken for facts. */
export const sectionPairNames = new Map<string, PairRole>([
  ...pairNames,
  ...table<PairRole>([
    ["objection", "customer|client|caller|they say|klient|klientka|rozmowca|p"],
    ["reply", "agent|you|we|ty|konsultant|o"]
  ])
])

export const fieldTypes = table<FieldType>([
  ["string", "string|text|tekst"],
  ["number", "number|numeric|integer|liczba"],
  ["boolean", "boolean|bool|yes/no|tak/nie"],
  ["date", "date|data"]
])

export const languageNames = table([
  ["en", "english|angielski"],
  ["pl", "polish|polski"]
])

/** A key as compared against the tables: lower case, no diacritics, no parenthesised words. */
export const fold = (key: string): string =>
  key
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[łŁ]/g, "l")
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/\([^()]*\)/g, " ")
    .replace(/\s+/g, " ")
    .trim()
