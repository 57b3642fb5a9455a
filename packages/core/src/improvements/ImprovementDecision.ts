import { Either } from "effect"
import type { WorkflowDefinition } from "../agents/Agent.js"
import type { Improvement } from "./Improvement.js"
import { AlreadyDecided } from "./ImprovementErrors.js"

/** What a decision does: accept applies the text, dismiss only records the decision. */
export type Decision = "accepted" | "dismissed"

/** Moves a pending suggestion to `accepted` or `dismissed`; a decided one is refused. */
export const decide = (
  improvement: Improvement,
  decision: Decision,
  now: Date
): Either.Either<Improvement, AlreadyDecided> =>
  improvement.status === "pending"
    ? Either.right({ ...improvement, status: decision, decided_at: now })
    : Either.left(new AlreadyDecided({ status: improvement.status }))

/** The separator between the prompt and an accepted suggestion's text. */
export const separator = "\n\n"

/** The definition an accepted suggestion produces: its text appended to the system prompt. */
export const applyTo = (definition: WorkflowDefinition, text: string): WorkflowDefinition => ({
  ...definition,
  system_prompt: definition.system_prompt + separator + text
})
