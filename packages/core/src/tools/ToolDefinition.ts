import { Schema } from "effect"

const exact = { exact: true } as const
const nullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(Schema.NullOr(schema), exact)

/** A parameter the language model passes to a tool. */
export const ToolParameter = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  type: Schema.Literal("string", "number", "boolean"),
  description: Schema.String,
  required: Schema.optionalWith(Schema.Boolean, { default: () => true, exact: true })
})
export type ToolParameter = typeof ToolParameter.Type

const parameters = nullable(Schema.Array(ToolParameter))

/** The request timeout an HTTP API tool gets when none is set. */
export const defaultTimeoutMs = 5000

/** Calls an HTTP endpoint with the parameters the model chose. */
export const HttpApiConfig = Schema.Struct({
  method: Schema.Literal("GET", "POST", "PUT", "PATCH", "DELETE"),
  url: Schema.String.pipe(
    Schema.filter((url) => /^https?:\/\/[^\s]+$/i.test(url) || "expected an absolute http(s) URL")
  ),
  headers: nullable(Schema.Record({ key: Schema.String, value: Schema.String })),
  credential_uuid: nullable(Schema.String),
  parameters,
  timeout_ms: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.between(100, 120_000))), {
    default: () => defaultTimeoutMs,
    exact: true
  }),
  trigger_phrases: nullable(Schema.Array(Schema.String)),
  wait_message: nullable(Schema.String),
  response_fields: nullable(Schema.Array(Schema.String)),
  error_message: nullable(Schema.String),
  template_id: nullable(Schema.String)
})
export type HttpApiConfig = typeof HttpApiConfig.Type

/** Ends the call, optionally after a message. */
export const EndCallConfig = Schema.Struct({
  messageType: Schema.optionalWith(Schema.Literal("none", "custom"), {
    default: () => "none" as const,
    exact: true
  }),
  customMessage: nullable(Schema.String)
})
export type EndCallConfig = typeof EndCallConfig.Type

/** Transfers the caller; a model-supplied number is used only when it is one of the agent's numbers. */
export const TransferConfig = Schema.Struct({
  destination_number: nullable(Schema.String),
  message: nullable(Schema.String),
  parameters
})
export type TransferConfig = typeof TransferConfig.Type

/** Uses a provider integration (weather, CRM lookup, ...). `api_key` is stored, never echoed back. */
export const IntegrationConfig = Schema.Struct({
  provider: Schema.String.pipe(Schema.minLength(1)),
  action: nullable(Schema.String),
  parameters,
  crm_type: nullable(Schema.String),
  api_key: nullable(Schema.String)
})
export type IntegrationConfig = typeof IntegrationConfig.Type

const definition = <T extends string, C extends Schema.Schema.Any>(type: T, config: C) =>
  Schema.Struct({
    schema_version: Schema.optionalWith(Schema.Int.pipe(Schema.positive()), {
      default: () => 1,
      exact: true
    }),
    type: Schema.Literal(type),
    config
  })

/** What a tool does; `type` selects the shape of `config`. */
export const ToolDefinition = Schema.Union(
  definition("http_api", HttpApiConfig),
  definition("end_call", EndCallConfig),
  definition("transfer", TransferConfig),
  definition("integration", IntegrationConfig)
)
export type ToolDefinition = typeof ToolDefinition.Type
export type ToolType = ToolDefinition["type"]
