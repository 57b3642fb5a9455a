import type { Tool } from "./Tool.js"
import { isSecretHeader, secretMask } from "./Tool.js"
import type { ToolDefinition } from "./ToolDefinition.js"
import { defaultTimeoutMs } from "./ToolDefinition.js"
import type { ToolPatch } from "./ToolStore.js"

/** What `PATCH /tools/{tool_uuid}` may change; an omitted field stays as it is. */
export interface ToolChanges {
  readonly name?: string
  readonly description?: string | null
  readonly category?: string
  readonly icon?: string | null
  readonly icon_color?: string | null
  readonly definition?: ToolDefinition
}

/**
 * The definition as it is stored: a `null` timeout means the documented default (5000 ms), so the
 * runtime never meets a tool without one; an empty integration `api_key` means "no key".
 */
export const withStoredDefaults = (definition: ToolDefinition): ToolDefinition => {
  switch (definition.type) {
    case "http_api":
      return definition.config.timeout_ms === null
        ? { ...definition, config: { ...definition.config, timeout_ms: defaultTimeoutMs } }
        : definition
    case "integration":
      return definition.config.api_key === ""
        ? { ...definition, config: { ...definition.config, api_key: null } }
        : definition
    default:
      return definition
  }
}

/** The category of a new tool: the requested one, else the definition's type (contract). */
export const categoryFor = (requested: string | undefined, definition: ToolDefinition): string =>
  requested ?? definition.type

/** The stored credential an HTTP API definition authenticates with, if any. */
export const credentialUuidOf = (definition: ToolDefinition): string | null =>
  definition.type === "http_api" ? (definition.config.credential_uuid ?? null) : null

/**
 * Keeps the stored integration `api_key` when a new definition of the same provider leaves it out or
 * null: the API never shows the key (it reads back as null), so a client that sends back what it read
 * must not erase it. An empty string removes the key.
 */
const keepApiKey = (current: ToolDefinition, next: ToolDefinition): ToolDefinition => {
  if (current.type !== "integration" || next.type !== "integration") return next
  if (next.config.provider !== current.config.provider) return next
  if (next.config.api_key !== undefined && next.config.api_key !== null) return next
  const stored = current.config.api_key
  return stored === undefined || stored === null
    ? next
    : { ...next, config: { ...next.config, api_key: stored } }
}

/**
 * Keeps a stored credential header when a new HTTP API definition sends back its mask (`****`), which
 * is how the API shows it; any other value replaces it.
 */
const keepSecretHeaders = (current: ToolDefinition, next: ToolDefinition): ToolDefinition => {
  if (current.type !== "http_api" || next.type !== "http_api" || next.config.headers == null) return next
  const stored = current.config.headers ?? {}
  const headers = Object.fromEntries(
    Object.entries(next.config.headers).map(([name, value]) => [
      name,
      value === secretMask && isSecretHeader(name) && stored[name] !== undefined ? stored[name] : value
    ])
  )
  return { ...next, config: { ...next.config, headers } }
}

/**
 * The store patch an update makes. A category that was the default (equal to the old definition's
 * type) follows a definition of another type unless the update names a category itself.
 */
export const patch = (current: Tool, changes: ToolChanges): ToolPatch => {
  const out: { -readonly [K in keyof ToolPatch]: ToolPatch[K] } = {}
  if (changes.name !== undefined) out.name = changes.name
  if (changes.description !== undefined) out.description = changes.description
  if (changes.icon !== undefined) out.icon = changes.icon
  if (changes.icon_color !== undefined) out.icon_color = changes.icon_color
  if (changes.definition !== undefined) {
    const definition = withStoredDefaults(
      keepSecretHeaders(current.definition, keepApiKey(current.definition, changes.definition))
    )
    out.definition = definition
    if (
      changes.category === undefined &&
      definition.type !== current.definition.type &&
      current.category === current.definition.type
    ) {
      out.category = definition.type
    }
  }
  if (changes.category !== undefined) out.category = changes.category
  return out
}
