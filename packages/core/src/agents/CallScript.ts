import { Schema } from "effect"

const text = Schema.String
const optionalText = Schema.optionalWith(Schema.String, { default: () => "", exact: true })
const optionalList = <S extends Schema.Schema.Any>(item: S) =>
  Schema.optionalWith(Schema.Array(item), { default: () => [], exact: true })

/** A step of the script: a plain string, or a title with a description. */
export const ScriptStep = Schema.Union(
  text,
  Schema.Struct({ title: text, description: Schema.optionalWith(text, { exact: true }) })
)
export type ScriptStep = typeof ScriptStep.Type

/** What a caller may object, and what the agent answers. */
export const Objection = Schema.Struct({ objection: text, response: text })
export type Objection = typeof Objection.Type

/** A piece of data the agent must gather: a name, or a name with a description and a type. */
export const DataField = Schema.Union(
  text,
  Schema.Struct({
    name: text,
    description: Schema.optionalWith(text, { exact: true }),
    type: Schema.optionalWith(Schema.Literal("string", "number", "boolean", "date"), { exact: true })
  })
)
export type DataField = typeof DataField.Type

export const FaqEntry = Schema.Struct({ question: text, answer: text })
export type FaqEntry = typeof FaqEntry.Type

/** The previewed call script (`agent` of the from-script request); only the greeting is required. */
export const CallScriptAgent = Schema.Struct({
  agent_goal: optionalText,
  call_direction: Schema.optionalWith(Schema.Literal("outbound", "inbound"), {
    default: () => "outbound" as const,
    exact: true
  }),
  greeting: Schema.Trim.pipe(Schema.nonEmptyString({ message: () => "greeting must not be empty" })),
  conversation_structure: optionalList(ScriptStep),
  objections: optionalList(Objection),
  required_phrases: optionalList(text),
  data_fields: optionalList(DataField),
  custom_data_fields: optionalList(DataField),
  avoid_topics: optionalList(text),
  persona: optionalText,
  formality: optionalText,
  address_form: optionalText
})
export type CallScriptAgent = typeof CallScriptAgent.Type

/** A language tag such as `en`, `pl` or `en-GB`. */
export const LanguageCode = Schema.String.pipe(
  Schema.pattern(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
    message: () => "expected a language code such as en or pl-PL"
  })
)

/** Body of `POST /agents/from-script`: the script preview plus what the agent should know. */
export const CallScriptRequest = Schema.Struct({
  agent: CallScriptAgent,
  facts: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), {
    default: () => ({}),
    exact: true
  }),
  faq: optionalList(FaqEntry),
  knowledge: optionalText,
  website: optionalText,
  language: Schema.optionalWith(LanguageCode, { default: () => "en", exact: true }),
  agent_name: Schema.optionalWith(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(255)), {
    exact: true
  }),
  agent_voice: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), {
    exact: true
  }),
  generate_with_ai: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true }),
  enable_booking: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true }),
  scheduler_connection_id: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1)), { exact: true })
}).pipe(
  Schema.filter((request) =>
    request.enable_booking && request.scheduler_connection_id === undefined
      ? {
          path: ["scheduler_connection_id"],
          message: "scheduler_connection_id is required when enable_booking is true"
        }
      : undefined
  )
)
export type CallScriptRequest = typeof CallScriptRequest.Type
