import { rank } from "../../knowledge-base/Search.js"
import type { ConversationGuide } from "../LanguageModel.js"
import { contentWords, coverage } from "./Words.js"

/**
 * Answers to a user's question from what the agent knows, by shared words (BM25 through the knowledge
 * base's `Search.rank`, over stemmed words without stop words): a FAQ entry when the question shares at
 * least half of the entry's question words, or two words with the entry; else the most relevant
 * sentences of the best knowledge chunk that shares enough words; else nothing (the caller says it does
 * not know).
 */

/** The longest answer taken from a knowledge chunk, in characters. */
export const maxKnowledgeChars = 300

/** Where an answer came from. */
export type AnswerSource = "faq" | "knowledge"

export interface Answer {
  readonly text: string
  readonly source: AnswerSource
}

const compared = (text: string): string => contentWords(text).join(" ")

const distinctShared = (text: string, query: ReadonlySet<string>): number =>
  new Set(contentWords(text).filter((word) => query.has(word))).size

/** The FAQ entry that answers the question, or undefined. */
export const faqEntryFor = (
  question: string,
  faq: ConversationGuide["faq"]
): ConversationGuide["faq"][number] | undefined => {
  const asked = contentWords(question)
  const query = new Set(asked)
  if (query.size === 0) return undefined
  const eligible = faq.filter(
    (entry) =>
      coverage(contentWords(entry.question), query) >= 0.5 ||
      distinctShared(`${entry.question} ${entry.answer}`, query) >= 2
  )
  // the entry's question counts twice: it says what the entry is about, the answer only may
  return rank(
    asked.join(" "),
    eligible,
    (entry) => compared(`${entry.question} ${entry.question} ${entry.answer}`),
    1
  )[0]?.item
}

const sentencesOf = (text: string): ReadonlyArray<string> =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "")

/** The text cut at a word boundary to at most `limit` characters, with an ellipsis when cut. */
const cutAtWord = (text: string, limit: number): string => {
  if (text.length <= limit) return text
  const head = text.slice(0, limit - 1)
  const space = head.lastIndexOf(" ")
  return `${(space > limit / 2 ? head.slice(0, space) : head).replace(/[\s,;:.-]+$/, "")}…`
}

/**
 * The most relevant sentences of the best matching chunk, in the chunk's order, at most
 * `maxKnowledgeChars` characters; undefined when no chunk shares enough words (two, or all of a
 * one-word question).
 */
export const knowledgeAnswerFor = (question: string, chunks: ReadonlyArray<string>): string | undefined => {
  const asked = contentWords(question)
  const query = new Set(asked)
  const needed = Math.min(2, query.size)
  if (needed === 0) return undefined
  const eligible = chunks.filter((chunk) => distinctShared(chunk, query) >= needed)
  const best = rank(asked.join(" "), eligible, compared, 1)[0]?.item
  if (best === undefined) return undefined
  const sentences = sentencesOf(best)
  const ranked = rank(
    asked.join(" "),
    sentences.map((text, at) => ({ text, at })),
    (s) => compared(s.text),
    sentences.length
  )
  const top = ranked[0]?.item
  if (top === undefined) return cutAtWord(sentences.join(" "), maxKnowledgeChars)
  if (top.text.length >= maxKnowledgeChars) return cutAtWord(top.text, maxKnowledgeChars)
  const chosen = [top]
  let length = top.text.length
  for (const { item } of ranked.slice(1)) {
    if (length + 1 + item.text.length > maxKnowledgeChars) continue
    chosen.push(item)
    length += 1 + item.text.length
  }
  return chosen
    .sort((a, b) => a.at - b.at)
    .map((sentence) => sentence.text)
    .join(" ")
}

/** The answer to a question from the guide's FAQ, then its knowledge; undefined when neither has one. */
export const answerFor = (question: string, guide: ConversationGuide): Answer | undefined => {
  const entry = faqEntryFor(question, guide.faq)
  if (entry !== undefined) return { text: entry.answer.trim(), source: "faq" }
  const knowledge = knowledgeAnswerFor(question, guide.knowledge)
  return knowledge === undefined ? undefined : { text: knowledge, source: "knowledge" }
}
