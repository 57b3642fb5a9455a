import { Schema } from "effect"
import type { RunId } from "../runs/RunId.js"
import * as CodePoints from "../text/CodePoints.js"

/**
 * The `improvement_suggestions` structured output: changes to an agent's prompt a model proposes after
 * reading its recent runs, and how the answer becomes suggestions. Nothing here changes the agent: a
 * suggestion is `pending` until someone accepts it.
 */

/** The structured output's name, as the model is told it. */
export const name = "improvement_suggestions"

/** The most suggestions one generation adds. */
export const maxSuggestions = 3

/** The longest suggestion text and rationale kept, in characters (a suggestion is appended to the prompt). */
export const textChars = 2_000
export const rationaleChars = 1_000

export const schema = Schema.Struct({
  suggestions: Schema.Array(
    Schema.Struct({
      text: Schema.String.annotations({
        description: "What to add to the agent's system prompt, written as an instruction to the agent"
      }),
      rationale: Schema.String.annotations({ description: "Why, from what happened in the runs" }),
      source_run_id: Schema.NullOr(Schema.Int).annotations({
        description: "The run that shows the need, one of those given; null when none does"
      })
    })
  ).annotations({ description: `At most ${maxSuggestions} suggestions, the most useful first` })
})
export type Generated = typeof schema.Type

/** A suggestion to add. */
export interface NewSuggestion {
  readonly text: string
  readonly rationale: string | null
  readonly source_run_id: RunId | null
}

/**
 * Text as a suggestion keeps it: whitespace runs one space, cut to `limit`, trimmed (also after the cut,
 * so that a kept text cleans to itself and a pending one compares equal to the same text proposed again).
 */
const clean = (text: string, limit: number) =>
  CodePoints.cut(text.replace(/\s+/g, " ").trim(), limit).trimEnd()

/**
 * The suggestions to add: at most `maxSuggestions`, each trimmed and bounded, without an empty one, one
 * equal to a pending suggestion of the agent (`pendingTexts`, compared as cleaned) or one given twice; a
 * `source_run_id` that is not one of the runs read becomes null.
 */
export const toAdd = (
  generated: Generated,
  runsRead: ReadonlyArray<RunId>,
  pendingTexts: ReadonlyArray<string>
): ReadonlyArray<NewSuggestion> => {
  const seen = new Set(pendingTexts.map((text) => clean(text, textChars).toLowerCase()))
  const read = new Set<number>(runsRead)
  const added: Array<NewSuggestion> = []
  for (const suggestion of generated.suggestions) {
    if (added.length >= maxSuggestions) break
    const text = clean(suggestion.text, textChars)
    if (text === "" || seen.has(text.toLowerCase())) continue
    seen.add(text.toLowerCase())
    const rationale = clean(suggestion.rationale, rationaleChars)
    added.push({
      text,
      rationale: rationale === "" ? null : rationale,
      source_run_id:
        suggestion.source_run_id !== null && read.has(suggestion.source_run_id)
          ? (suggestion.source_run_id as RunId)
          : null
    })
  }
  return added
}
