/** The language of a call script: a given code or name, a `Language:` label, or a guess from its words. */
import { fold, languageNames } from "./ScriptVocabulary.js"

export const languagePattern = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

/** Common Polish words (folded: no diacritics), rare in English text. */
export const polishWords = new Set(
  (
    "nie jest czy jak tak oraz sie ze dzien dobry pan pani pana panstwo panstwa prosze jestem dlaczego kiedy " +
    "gdzie ktory ktora ktore bardzo dla albo jesli jezeli wiec tylko mamy moze mozemy dziekuje rozmowa " +
    "rozmowy klient klienta kroki powitanie zbierz unikaj fakty cel tu jestesmy twoj wasz"
  ).split(" ")
)
/** Common English words, to weigh against the Polish ones. */
export const englishWords = new Set(
  (
    "the and you your is are this that with for we of in be have what can please thank thanks hello hi our " +
    "it will would not yes call if about from an my they their"
  ).split(" ")
)
export const polishLetters = /[ąćęłńśźż]/

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
export const languageCode = (value: string): string | undefined => {
  const trimmed = value.trim().replace(/_/g, "-")
  if (trimmed.length > 35) return undefined
  const named = languageNames.get(fold(trimmed))
  if (named !== undefined) return named
  const [primary = "", ...rest] = trimmed.split("-")
  const code = [primary.toLowerCase(), ...rest].join("-")
  return languagePattern.test(code) ? code : undefined
}

export const isPolish = (language: string): boolean => language === "pl" || language.startsWith("pl-")
