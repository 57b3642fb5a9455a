import { Schema } from "effect"
import type { GatheredField } from "../agents/Agent.js"
import * as CodePoints from "../text/CodePoints.js"

/**
 * The `call_analysis` structured output: what a model reads out of an ended run (its data fields, its
 * disposition, a summary), and how the answer lands on the run. Kept to what providers' strict modes
 * accept: every property required, unknown values null, lengths bounded after decoding.
 */

/** The structured output's name, as the model is told it. */
export const name = "call_analysis"

/** The longest summary kept, in characters (UTF-16 code units, never splitting a character). */
export const summaryChars = 500

/**
 * The most data fields an analysis asks for (the agent's first ones): providers' strict structured output
 * takes at most 100 properties in one schema.
 */
export const maxFields = 90

/** The longest value of a data field kept from an analysis, in characters. */
export const valueChars = 2_000

/** A data field's value as the model gives it: of the field's type, or null when the conversation did not say. */
const valueOf = (field: GatheredField) => {
  const described = (base: Schema.Schema.Any, hint: string) =>
    Schema.NullOr(base).annotations({
      description: `${field.description ?? field.name.replace(/_/g, " ")} (${hint}; null when the conversation did not say)`
    })
  switch (field.type) {
    case "string":
      return described(Schema.String, "text")
    case "number":
      return described(Schema.Number, "a number")
    case "boolean":
      return described(Schema.Boolean, "true or false")
    case "date":
      return described(Schema.String, "a date, YYYY-MM-DD")
  }
}

/** What a disposition code means, as text: the agent's description (any JSON value) read as a sentence. */
export const describe = (meaning: unknown): string =>
  typeof meaning === "string"
    ? meaning
    : meaning === null || meaning === undefined
      ? ""
      : JSON.stringify(meaning)

/**
 * The agent's codes with their descriptions as text, sorted by code: the same order on every storage
 * (PostgreSQL's jsonb keeps an object's keys in its own order, not the order they were written in).
 */
export const dispositionCodes = (
  codes: Readonly<Record<string, unknown>>
): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.entries(codes)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([code, meaning]) => [code, describe(meaning)])
  )

/**
 * The schema of an agent's analysis: `gathered_data` with one property per data field, `disposition` one
 * of the agent's codes (only when it has some), `summary`.
 */
export const schemaFor = (fields: ReadonlyArray<GatheredField>, codes: Readonly<Record<string, unknown>>) => {
  const description = "The data the agent gathers, as the conversation gave it"
  const gathered = Schema.Struct(
    // a field named `__proto__` would vanish from the derived JSON Schema (an object literal's setter)
    Object.fromEntries(
      fields
        .filter((field) => field.name !== "__proto__")
        .slice(0, maxFields)
        .map((field) => [field.name, valueOf(field)])
    )
  ).annotations(
    fields.length > 0
      ? { description }
      : {
          description,
          // Effect derives an empty struct as "any object or array", which strict modes refuse
          jsonSchema: {
            type: "object",
            properties: {},
            required: [],
            additionalProperties: false,
            description
          }
        }
  )
  const summary = Schema.String.annotations({
    description: `What happened in the conversation, in at most ${summaryChars} characters`
  })
  const entries = Object.entries(dispositionCodes(codes))
  if (entries.length === 0) return Schema.Struct({ gathered_data: gathered, summary })
  const [first, ...rest] = entries.map(([code, meaning]) =>
    Schema.Literal(code).annotations(meaning === "" ? {} : { description: meaning })
  )
  return Schema.Struct({
    gathered_data: gathered,
    disposition: Schema.Union(first!, ...rest).annotations({
      description: "The code that best describes how the conversation ended"
    }),
    summary
  })
}

/** An analysis as decoded (whatever the agent's fields and codes). */
export interface Analysis {
  readonly gathered_data: Readonly<Record<string, unknown>>
  readonly disposition?: string
  readonly summary: string
}

/** What an analysis writes on its run. */
export interface AnalysisResult {
  readonly gathered_context: Readonly<Record<string, unknown>>
  readonly disposition: string | null
  readonly summary: string
}

/**
 * The run's fields after the analysis: values already gathered (reported by a runtime or a tool) are
 * kept, the analysis fills the others it found (a null is "not found"); the disposition is the analysis'
 * when it gave one, else the one the run had; the summary is trimmed and cut to `summaryChars`.
 */
export const apply = (
  current: {
    readonly gathered_context: Readonly<Record<string, unknown>>
    readonly disposition: string | null
  },
  analysis: Analysis
): AnalysisResult => {
  const filled: Record<string, unknown> = { ...current.gathered_context }
  for (const [key, value] of Object.entries(analysis.gathered_data)) {
    if (value === null || value === undefined) continue
    if (Object.hasOwn(filled, key) && filled[key] !== null && filled[key] !== undefined) continue
    filled[key] = typeof value === "string" ? CodePoints.cut(value, valueChars) : value
  }
  return {
    gathered_context: filled,
    disposition: analysis.disposition ?? current.disposition,
    summary: CodePoints.cut(analysis.summary.trim(), summaryChars)
  }
}
