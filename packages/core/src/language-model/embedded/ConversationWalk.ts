import type { GatheredField, PlanStep } from "../../agents/Agent.js"
import type { ConversationGuide } from "../LanguageModel.js"
import type { FieldValue, Turn } from "./FieldExtraction.js"
import { valuesOf } from "./FieldExtraction.js"
import { askedIn, labelOf } from "./FieldKinds.js"
import type { Phrases } from "./Phrasebook.js"
import { says, words } from "./Words.js"

/**
 * Where a conversation stands on the agent's plan: which steps the agent has said (a step is said once
 * an assistant turn holds its title or its words), which data fields the user has given, and what the
 * agent says next: the first step not yet said, then a question for the first field not yet known and
 * not yet asked `maxAsks` times.
 */

/** How many times the model asks for a field the user's answers did not give, before moving on. */
export const maxAsks = 2

/** What the agent says for a plan step: its question when it is one, else its title and description. */
export const stepUtterance = (step: PlanStep): string => {
  const title = step.title.trim()
  const description = step.description?.trim() ?? ""
  if (description.endsWith("?")) return description
  if (title.endsWith("?") || description === "") return title
  return `${title.replace(/[.:]+$/, "")}. ${description}`
}

/** The question for a field: its description when written as a question, else one built from its name. */
export const fieldQuestion = (field: GatheredField, phrases: Phrases): string => {
  const description = field.description?.trim() ?? ""
  if (description.endsWith("?")) return description
  const label = labelOf(field)
  return field.type === "boolean"
    ? phrases.askYesNo(description === "" ? label : description.replace(/[.!]+$/, ""))
    : phrases.askFor(label)
}

/** True when an assistant turn has said the step. */
const hasSaid = (turns: ReadonlyArray<Turn>, step: PlanStep): boolean =>
  turns.some(
    (turn) =>
      turn.role === "assistant" && (says(turn.text, step.title) || says(turn.text, stepUtterance(step)))
  )

export interface Walk {
  /** What the agent says next on its plan, or undefined when everything is said, known or given up. */
  readonly next: string | undefined
  /** True when the agent has a plan or data fields to walk at all. */
  readonly hasPlan: boolean
  /** The data fields' values given so far, by name. */
  readonly known: ReadonlyMap<string, FieldValue>
}

/**
 * How many times an assistant turn asked for the field (in the model's words, or naming it best) and the
 * user answered; `asked` is, for each turn, the field an assistant turn names best.
 */
const asks = (
  turns: ReadonlyArray<Turn>,
  asked: ReadonlyArray<string | undefined>,
  field: GatheredField,
  phrases: Phrases
): number => {
  const question = fieldQuestion(field, phrases)
  return turns.filter(
    (turn, i) =>
      turn.role === "assistant" &&
      turns[i + 1]?.role === "user" &&
      (asked[i] === field.name || turn.text.includes(question))
  ).length
}

/** Where the conversation stands. */
export const walkOf = (guide: ConversationGuide, turns: ReadonlyArray<Turn>, phrases: Phrases): Walk => {
  // a step whose words are all punctuation could never be recognised as said: it is not walked
  const steps = guide.plan.filter((step) => words(stepUtterance(step)).length > 0)
  const known = valuesOf(guide.data_fields, turns)
  const step = steps.find((candidate) => !hasSaid(turns, candidate))
  const asked =
    step === undefined
      ? turns.map((turn) =>
          turn.role === "assistant" ? askedIn(turn.text, guide.data_fields)?.name : undefined
        )
      : []
  const field =
    step === undefined
      ? guide.data_fields.find(
          (candidate) => !known.has(candidate.name) && asks(turns, asked, candidate, phrases) < maxAsks
        )
      : undefined
  return {
    next:
      step !== undefined
        ? stepUtterance(step)
        : field !== undefined
          ? fieldQuestion(field, phrases)
          : undefined,
    hasPlan: steps.length > 0 || guide.data_fields.length > 0,
    known
  }
}
