import * as Tool from "@voice-agent-platform/core/tools/Tool.js"
import type { ToolResponse } from "./ToolsApi.js"

/** A tool in the API's shape, without its secrets. */
export const toolResponse = (record: Tool.Tool): typeof ToolResponse.Type => {
  const tool = Tool.withoutSecrets(record)
  return {
    id: tool.id,
    tool_uuid: tool.tool_uuid,
    name: tool.name,
    description: tool.description,
    category: tool.category,
    icon: tool.icon,
    icon_color: tool.icon_color,
    status: tool.status,
    definition: tool.definition,
    created_at: tool.created_at,
    updated_at: tool.updated_at,
    created_by: tool.created_by
  }
}
