import { maxSuggestions } from "../../improvements/ImprovementSuggestions.js"
import { cut } from "../../text/CodePoints.js"
import type { ConversationGuide, GuideTranscript } from "../LanguageModel.js"
import { stepUtterance } from "./ConversationWalk.js"
import { questionOf } from "./FieldKinds.js"
import { fallbacks } from "./Phrasebook.js"
import { goodbyes, isBusy, isNotInterested, isQuestion } from "./Utterances.js"
import { says, saysAny, words } from "./Words.js"

/**
 * Improvement suggestions read out of an agent's recent runs, by rules that see three kinds of need:
 * a question the agent answered with "I don't have that information" (or the like), a plan step no
 * conversation reached, and a user who said they were busy or not interested while the agent went on as
 * if they had not. Each need is weighed by the number of runs that show it (most first; on a tie
 * questions, then busy/not interested, then plan steps); at most `maxSuggestions`. None when nothing is
 * found.
 */

/** A suggestion, as the `improvement_suggestions` schema has it. */
export interface Idea {
  readonly text: string
  readonly rationale: string
  readonly source_run_id: number | null
}

/** What an agent says when it cannot answer: the embedded model's fallbacks and common wordings. */
export const cannotAnswer: ReadonlyArray<string> = [
  ...fallbacks,
  "don't have that information",
  "do not have that information",
  "i don't know",
  "i do not know",
  "i'm not sure",
  "i am not sure",
  "nie mam tej informacji",
  "nie wiem",
  "nie jestem pewien",
  "nie jestem pewna"
]

/** What an agent says when it takes a busy or unwilling user into account. */
const acknowledgements: ReadonlyArray<string> = [
  ...goodbyes,
  "understand",
  "sorry",
  "call back",
  "call you back",
  "later",
  "another time",
  "no problem",
  "rozumiem",
  "przepraszam",
  "oddzwonie",
  "pozniej",
  "innym razem"
]

interface Need {
  readonly key: string
  readonly order: number
  readonly runs: Array<number | null>
  readonly text: string
  readonly rationale: (runs: ReadonlyArray<number | null>) => string
}

const runsPhrase = (runs: ReadonlyArray<number | null>): string => {
  const ids = runs.filter((id): id is number => id !== null)
  if (runs.length === 1) return ids.length === 1 ? `In run ${ids[0]}` : "In one conversation"
  return `In ${runs.length} runs`
}

const quoted = (text: string) => `"${cut(text.trim().replace(/\s+/g, " "), 200)}"`

/** The suggestions for the guide's transcripts (the agent's recent runs) against its plan. */
export const ideasFor = (guide: ConversationGuide): ReadonlyArray<Idea> => {
  const needs = new Map<string, Need>()
  const note = (run: number | null, need: Omit<Need, "runs">) => {
    const found = needs.get(need.key) ?? { ...need, runs: [] }
    if (!found.runs.includes(run)) found.runs.push(run)
    needs.set(need.key, found)
  }
  const conversations = guide.transcripts.filter((transcript) => transcript.turns.length >= 2)
  for (const { run_id, turns } of conversations) {
    turns.forEach((turn, i) => {
      const reply = turns[i + 1]
      if (turn.role !== "user" || reply?.role !== "assistant") return
      if (isQuestion(turn.text) && saysAny(reply.text, cannotAnswer)) {
        const question = quoted(questionOf(turn.text))
        note(run_id, {
          key: `question ${words(questionOf(turn.text)).join(" ")}`,
          order: 0,
          text: `When a caller asks ${question}, answer it from the knowledge base; if the answer is not there, say so and offer to pass the question on to a colleague.`,
          rationale: (runs) =>
            `${runsPhrase(runs)} the agent could not answer ${question}. Add the answer to the agent's knowledge base or prompt.`
        })
      }
      const handled = saysAny(reply.text, acknowledgements)
      if (!handled && isNotInterested(turn.text)) {
        note(run_id, {
          key: "not interested",
          order: 1,
          text: "When a caller says they are not interested, acknowledge it, thank them and end the call politely without pressing on.",
          rationale: (runs) =>
            `${runsPhrase(runs)} the user said they were not interested and the agent went on without acknowledging it.`
        })
      } else if (!handled && isBusy(turn.text)) {
        note(run_id, {
          key: "busy",
          order: 1,
          text: "When a caller says they are busy, apologise, offer to call back at a time that suits them, and end the call politely.",
          rationale: (runs) =>
            `${runsPhrase(runs)} the user said they were busy and the agent went on without acknowledging it.`
        })
      }
    })
  }
  if (conversations.length > 0) {
    for (const step of guide.plan) {
      if (words(step.title).length === 0) continue
      const reached = (transcript: GuideTranscript) =>
        transcript.turns.some(
          (turn) =>
            turn.role === "assistant" && (says(turn.text, step.title) || says(turn.text, stepUtterance(step)))
        )
      if (conversations.some(reached)) continue
      for (const { run_id } of conversations) {
        note(run_id, {
          key: `step ${step.title}`,
          order: 2,
          text: `Cover the step "${step.title.trim()}"${step.description === null || step.description.trim() === "" ? "" : ` (${step.description.trim()})`} in every conversation before ending it.`,
          rationale: () =>
            `None of the ${conversations.length} conversations read reached the plan step "${step.title.trim()}".`
        })
      }
    }
  }
  return [...needs.values()]
    .map((need, position) => ({ need, position }))
    .sort(
      (a, b) =>
        b.need.runs.length - a.need.runs.length || a.need.order - b.need.order || a.position - b.position
    )
    .slice(0, maxSuggestions)
    .map(({ need }) => ({
      text: need.text,
      rationale: need.rationale(need.runs),
      source_run_id: need.runs.find((id) => id !== null) ?? null
    }))
}
