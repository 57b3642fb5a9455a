import * as CallAnalysis from "../../analysis/CallAnalysis.js"
import * as ImprovementSuggestions from "../../improvements/ImprovementSuggestions.js"
import type { ConversationGuide, JsonSchema, ModelMessage } from "../LanguageModel.js"
import { emptyGuide } from "../LanguageModel.js"
import { summarize } from "./CallSummary.js"
import { choose, signalsOf } from "./Disposition.js"
import type { FieldValue, Turn } from "./FieldExtraction.js"
import { valueOf, valuesOf } from "./FieldExtraction.js"
import type { Wanted } from "./FieldKinds.js"
import { read } from "./History.js"
import { ideasFor } from "./ImprovementIdeas.js"
import type { Filler } from "./SchemaFill.js"
import { fill, requiredOf } from "./SchemaFill.js"

/**
 * The embedded model's structured answers, by the request's name, each a value for its JSON Schema:
 *
 * - `call_analysis`: `gathered_data` read from the user turns of the guide's first transcript (each
 *   property by its name, the data field's type and description; null when not found), `disposition`
 *   the code the conversation matches best (`Disposition`), `summary` (`CallSummary`);
 * - `improvement_suggestions`: `suggestions` from the guide's transcripts (`ImprovementIdeas`);
 * - any other name: the schema filled from the conversation where a property's name is a recognisable
 *   kind (an e-mail, a date, …), else with empty values (`SchemaFill`).
 *
 * The conversation is the guide's first transcript, else the request's messages.
 */

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The conversation a structured request is about. */
const conversationOf = (
  guide: ConversationGuide,
  messages: ReadonlyArray<ModelMessage>
): ReadonlyArray<Turn> => guide.transcripts[0]?.turns ?? read(messages).turns

/** The data fields `gathered_data` asks for: its properties, typed as the guide's fields of that name. */
const gatheredFields = (schema: JsonSchema, guide: ConversationGuide): ReadonlyArray<Wanted> => {
  const properties = schema["properties"]
  const gathered = isRecord(properties) ? properties["gathered_data"] : undefined
  const fields = isRecord(gathered) && isRecord(gathered["properties"]) ? gathered["properties"] : {}
  const names = [...new Set([...Object.keys(fields), ...(isRecord(gathered) ? requiredOf(gathered) : [])])]
  return names.map((name) => {
    const property = Object.hasOwn(fields, name) ? fields[name] : undefined
    // the last field of a name, as the schema (built from entries) has it
    const field = [...guide.data_fields].reverse().find((candidate) => candidate.name === name)
    if (field !== undefined) return field
    const text = JSON.stringify(property)
    const type = /"number"|"integer"/.test(text)
      ? "number"
      : /"boolean"/.test(text)
        ? "boolean"
        : /YYYY-MM-DD/.test(text)
          ? "date"
          : "string"
    return {
      name,
      description:
        isRecord(property) && typeof property["description"] === "string" ? property["description"] : null,
      type
    }
  })
}

/** A filler that reads scalars and choices from the conversation alone. */
const conversationFiller = (turns: ReadonlyArray<Turn>, signals: ReadonlyArray<string>): Filler => ({
  hint: () => undefined,
  scalar: (name, type, description) => {
    const wanted: Wanted = { name, type, description }
    return valueOf(wanted, turns, [wanted])
  },
  choose: (options) => choose(options, turns, signals)
})

/** The value answering a structured request, before it is decoded with the request's schema. */
export const answer = (request: {
  readonly name: string
  readonly schema: JsonSchema
  readonly messages: ReadonlyArray<ModelMessage>
  readonly guide?: ConversationGuide | undefined
}): unknown => {
  const guide = request.guide ?? emptyGuide
  const turns = conversationOf(guide, request.messages)
  switch (request.name) {
    case CallAnalysis.name: {
      const fields = gatheredFields(request.schema, guide)
      const known: ReadonlyMap<string, FieldValue> = valuesOf(fields, turns)
      const signals = signalsOf(turns, fields.length > 0 && fields.every((field) => known.has(field.name)))
      const base = conversationFiller(turns, signals)
      return fill(request.schema, {
        ...base,
        hint: (path) => {
          if (path.length === 2 && path[0] === "gathered_data") return { value: known.get(path[1]!) ?? null }
          if (path.length === 1 && path[0] === "summary")
            return { value: summarize({ turns, plan: guide.plan, fields, known }) }
          return undefined
        }
      })
    }
    case ImprovementSuggestions.name:
      return fill(request.schema, {
        ...conversationFiller(turns, []),
        hint: (path) =>
          path.length === 1 && path[0] === "suggestions" ? { value: ideasFor(guide) } : undefined
      })
    default:
      return fill(request.schema, conversationFiller(turns, signalsOf(turns, false)))
  }
}
