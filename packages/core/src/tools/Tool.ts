import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"
import { ToolDefinition } from "./ToolDefinition.js"

export const ToolId = Schema.Int.pipe(Schema.positive(), Schema.brand("ToolId"))
export type ToolId = typeof ToolId.Type

export const ToolStatus = Schema.Literal("active", "archived")
export type ToolStatus = typeof ToolStatus.Type

/** Defaults and limits of the create-tool request (spec, "Create Tool"). */
export const toolLimits = { name: 255, icon: 50, iconColor: 7 } as const
export const defaultIcon = "globe"
export const defaultIconColor = "#3B82F6"

/** Body of `POST /tools`; the category defaults to the definition's type. */
export const CreateToolRequest = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(toolLimits.name)),
  description: Schema.optionalWith(Schema.NullOr(Schema.String), { exact: true }),
  category: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), {
    exact: true
  }),
  icon: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(toolLimits.icon))), {
    default: () => defaultIcon,
    exact: true
  }),
  icon_color: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(toolLimits.iconColor))), {
    default: () => defaultIconColor,
    exact: true
  }),
  definition: ToolDefinition
})
export type CreateToolRequest = typeof CreateToolRequest.Type

/** A tool an agent can call during a conversation. */
export const Tool = Schema.Struct({
  id: ToolId,
  tool_uuid: Schema.String,
  organization_id: OrganizationId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: Schema.String,
  icon: Schema.NullOr(Schema.String),
  icon_color: Schema.NullOr(Schema.String),
  status: ToolStatus,
  definition: ToolDefinition,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.NullOr(Schema.DateFromSelf),
  created_by: Schema.NullOr(Schema.Struct({ id: Schema.Int, provider_id: Schema.String }))
})
export type Tool = typeof Tool.Type

/** Header names whose values are credentials (`Authorization`, `Cookie`, `X-API-Key`, `X-Auth-Token`, ...). */
export const isSecretHeader = (name: string): boolean => {
  const compact = name.toLowerCase().replace(/[-_\s.]/g, "")
  return (
    compact === "authorization" ||
    compact === "proxyauthorization" ||
    compact === "cookie" ||
    ["token", "secret", "password", "apikey", "auth"].some((word) => compact.includes(word))
  )
}

/** What a secret header value reads back as. */
export const secretMask = "****"

/**
 * A tool as the API shows it: secrets are never echoed back — an integration's `api_key` reads as null
 * and an HTTP API tool's credential headers read as `****`.
 */
export const withoutSecrets = (tool: Tool): Tool => {
  const definition = tool.definition
  if (definition.type === "integration" && definition.config.api_key !== undefined) {
    return { ...tool, definition: { ...definition, config: { ...definition.config, api_key: null } } }
  }
  if (definition.type === "http_api" && definition.config.headers != null) {
    const headers = Object.fromEntries(
      Object.entries(definition.config.headers).map(([name, value]) => [
        name,
        isSecretHeader(name) ? secretMask : value
      ])
    )
    return { ...tool, definition: { ...definition, config: { ...definition.config, headers } } }
  }
  return tool
}
