import type { PlanStep } from "../../agents/Agent.js"
import { summaryChars } from "../../analysis/CallAnalysis.js"
import { cut } from "../../text/CodePoints.js"
import { stepUtterance } from "./ConversationWalk.js"
import type { FieldValue, Turn } from "./FieldExtraction.js"
import type { Wanted } from "./FieldKinds.js"
import { labelOf, questionOf } from "./FieldKinds.js"
import { fallbacks } from "./Phrasebook.js"
import { goodbyes, isBusy, isGoodbye, isNotInterested, isQuestion } from "./Utterances.js"
import { contentWords, says, saysAny } from "./Words.js"

/**
 * A short, factual summary of a conversation, in English, built from what the rules can see: how many
 * turns each side had, which plan steps the agent said, the data the user gave, the questions the agent
 * could not answer, a busy or uninterested user, and how it ended. Sentences are added while they fit
 * in `maxChars`.
 */

/** The longest summary, in characters: as much as the analysis keeps. */
export const maxChars = summaryChars

const quoted = (text: string, limit: number) => `"${cut(text.trim().replace(/\s+/g, " "), limit)}"`

const shown = (value: FieldValue) => (typeof value === "string" ? cut(value, 60) : String(value))

const listed = (items: ReadonlyArray<string>) => items.join(", ")

/** The summary of a conversation against the agent's plan and data fields. */
export const summarize = (input: {
  readonly turns: ReadonlyArray<Turn>
  readonly plan: ReadonlyArray<PlanStep>
  readonly fields: ReadonlyArray<Wanted>
  readonly known: ReadonlyMap<string, FieldValue>
}): string => {
  const { turns, plan, fields, known } = input
  if (turns.length === 0) return "No conversation took place."
  const agent = turns.filter((turn) => turn.role === "assistant")
  const user = turns.filter((turn) => turn.role === "user")
  const sentences: Array<string> = [
    `The conversation had ${turns.length} turns: ${agent.length} by the agent and ${user.length} by the user.`
  ]
  if (plan.length > 0) {
    // the step as this model says it, or its title when that is a phrase: a one-word title ("Time") would
    // be found in any sentence that happens to hold the word ("Thank you for your time")
    const said = plan.filter((step) =>
      agent.some(
        (turn) =>
          says(turn.text, stepUtterance(step)) ||
          (contentWords(step.title).length > 1 && says(turn.text, step.title))
      )
    )
    const missed = plan.filter((step) => !said.includes(step))
    sentences.push(
      `The agent covered ${said.length} of ${plan.length} plan steps` +
        (said.length > 0 ? ` (${listed(said.map((step) => step.title.trim()))})` : "") +
        (missed.length > 0 ? `; it did not reach ${listed(missed.map((step) => step.title.trim()))}.` : ".")
    )
  }
  if (fields.length > 0) {
    const given = fields.flatMap((field) => {
      const value = known.get(field.name)
      return value === undefined ? [] : [`${labelOf(field)}: ${shown(value)}`]
    })
    const missing = fields.filter((field) => !known.has(field.name)).map(labelOf)
    sentences.push(
      given.length === 0
        ? "The user gave none of the data asked for."
        : `The user gave ${listed(given)}.` + (missing.length > 0 ? ` Not given: ${listed(missing)}.` : "")
    )
  }
  const unanswered = turns.flatMap((turn, i) => {
    const reply = turns[i + 1]
    return turn.role === "user" &&
      isQuestion(turn.text) &&
      reply?.role === "assistant" &&
      saysAny(reply.text, fallbacks)
      ? [quoted(questionOf(turn.text), 80)]
      : []
  })
  if (unanswered.length > 0) sentences.push(`The agent could not answer ${listed(unanswered.slice(0, 2))}.`)
  if (user.some((turn) => isNotInterested(turn.text)))
    sentences.push("The user said they were not interested.")
  else if (user.some((turn) => isBusy(turn.text))) sentences.push("The user said they were busy.")
  const last = turns.at(-1)!
  sentences.push(
    last.role === "user"
      ? isGoodbye(last.text)
        ? "It ended with the user saying goodbye."
        : "It ended after the user's last turn."
      : saysAny(last.text, goodbyes)
        ? "The agent closed the conversation."
        : "It ended after the agent's last turn."
  )
  let summary = ""
  for (const sentence of sentences) {
    const next = summary === "" ? sentence : `${summary} ${sentence}`
    if (next.length > maxChars) continue
    summary = next
  }
  return summary === "" ? cut(sentences[0]!, maxChars) : summary
}
