import { guessLanguage } from "../../agents/ScriptLanguage.js"
import type { ConversationGuide } from "../LanguageModel.js"
import type { Turn } from "./FieldExtraction.js"

/**
 * The sentences the embedded model says in its own words, in English and Polish. The language is the
 * agent's, guessed from its first message, plan and FAQ (the user's words when the agent has none).
 */

export type Language = "en" | "pl"

export interface Phrases {
  /** The opening when the agent has no first message. */
  readonly greeting: string
  /** The opening when the user spoke first and the agent has no first message. */
  readonly hello: string
  /** Acknowledges a turn that gave something asked for. */
  readonly thanks: string
  /** Acknowledges any other turn. */
  readonly allRight: string
  readonly anythingElse: string
  readonly whatElse: string
  readonly closing: string
  /** Said before closing to a user who is busy or not interested. */
  readonly understood: string
  /** The answer to a question neither the FAQ nor the knowledge answers. */
  readonly fallback: string
  readonly askFor: (label: string) => string
  readonly askYesNo: (label: string) => string
  /** Asks for a function's missing argument; starts with `needPrefix(action)`. */
  readonly needArgument: (action: string, label: string) => string
  readonly needPrefix: (action: string) => string
  readonly cannotWithout: (action: string, label: string) => string
  readonly found: (facts: string) => string
  readonly foundMany: (count: number, first: string) => string
  readonly done: string
  readonly nothingFound: string
  /** What an unknown function does, in words. */
  readonly thatAction: string
  readonly failed: (action: string, detail: string | null) => string
}

const english: Phrases = {
  greeting: "Hello! How can I help you today?",
  hello: "Hello!",
  thanks: "Thank you.",
  allRight: "All right.",
  anythingElse: "Is there anything else I can help you with?",
  whatElse: "What else can I help you with?",
  closing: "Thank you for your time. Goodbye!",
  understood: "I understand.",
  fallback: "I'm sorry, I don't have that information.",
  askFor: (label) => `What is your ${label}?`,
  askYesNo: (label) => `Could you confirm, yes or no: ${label}?`,
  needArgument: (action, label) => `To ${action}, I need your ${label}. What is your ${label}?`,
  needPrefix: (action) => `To ${action}, I need`,
  cannotWithout: (action, label) => `I'm sorry, I can't ${action} without your ${label}.`,
  found: (facts) => `Here is what I found: ${facts}.`,
  foundMany: (count, first) => `I found ${count} results; the first: ${first}.`,
  done: "That's done.",
  nothingFound: "I found nothing.",
  thatAction: "do that",
  failed: (action, detail) => `I'm sorry, I could not ${action}${detail === null ? "" : `: ${detail}`}.`
}

const polish: Phrases = {
  greeting: "Dzień dobry! W czym mogę pomóc?",
  hello: "Dzień dobry!",
  thanks: "Dziękuję.",
  allRight: "Dobrze.",
  anythingElse: "Czy mogę jeszcze w czymś pomóc?",
  whatElse: "W czym jeszcze mogę pomóc?",
  closing: "Dziękuję za rozmowę. Do widzenia!",
  understood: "Rozumiem.",
  fallback: "Przepraszam, nie mam tej informacji.",
  askFor: (label) => `Proszę podać: ${label}.`,
  askYesNo: (label) => `Proszę odpowiedzieć tak lub nie: ${label}?`,
  needArgument: (action, label) => `Aby wykonać: ${action}, potrzebuję: ${label}. Proszę podać: ${label}.`,
  needPrefix: (action) => `Aby wykonać: ${action}, potrzebuję`,
  cannotWithout: (action, label) => `Przepraszam, nie mogę wykonać: ${action} bez: ${label}.`,
  found: (facts) => `Oto co znalazłem: ${facts}.`,
  foundMany: (count, first) => `Znalazłem wyników: ${count}; pierwszy: ${first}.`,
  done: "Gotowe.",
  nothingFound: "Niczego nie znalazłem.",
  thatAction: "tej czynności",
  failed: (action, detail) =>
    `Przepraszam, nie udało się wykonać: ${action}${detail === null ? "" : ` (${detail})`}.`
}

/** The phrases of a language. */
export const phrasesOf = (language: Language): Phrases => (language === "pl" ? polish : english)

/** The fallback answers of every language: how a transcript shows a question the agent could not answer. */
export const fallbacks: ReadonlyArray<string> = [english.fallback, polish.fallback]

/** The agent's language: guessed from what the guide says, else from the user's words. */
export const languageOf = (guide: ConversationGuide, turns: ReadonlyArray<Turn>): Language => {
  const agentText = [
    guide.first_message,
    ...guide.plan.flatMap((step) => [step.title, step.description ?? ""]),
    ...guide.faq.map((entry) => entry.question)
  ]
    .join(" ")
    .trim()
  const text =
    agentText !== ""
      ? agentText
      : turns
          .filter((turn) => turn.role === "user")
          .map((turn) => turn.text)
          .join(" ")
  return guessLanguage(text)
}
