import type { Agent, AgentDefinition, WorkflowDefinition } from "../../src/agents/Agent.js"
import { defaultWorkflowConfigurations } from "../../src/agents/Agent.js"
import { AgentDefinitionId, AgentId, AgentPublicId } from "../../src/agents/AgentIds.js"
import { OrganizationId } from "../../src/organizations/Organization.js"
import type { RunLogEntry } from "../../src/runs/Run.js"
import type { Tool } from "../../src/tools/Tool.js"
import { ToolId } from "../../src/tools/Tool.js"
import type { ToolDefinition } from "../../src/tools/ToolDefinition.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"

/** Agents, tools and conversations for the pure rules of conversations and analysis. */

export const epoch = new Date("2026-03-01T09:00:00.000Z")

/** A moment `seconds` after `epoch`. */
export const at = (seconds: number) => new Date(epoch.getTime() + seconds * 1000)

/** An active tool of organization 1. */
export const tool = (
  name: string,
  definition: ToolDefinition,
  fields: { readonly tool_uuid?: string; readonly description?: string | null } = {}
): Tool => ({
  id: ToolId.make(1),
  tool_uuid: fields.tool_uuid ?? `tool-${name}`,
  organization_id: OrganizationId.make(1),
  name,
  description: fields.description ?? null,
  category: definition.type,
  icon: null,
  icon_color: null,
  status: "active",
  definition,
  created_at: epoch,
  updated_at: null,
  created_by: null
})

export const httpApi = (config: Partial<Extract<ToolDefinition, { type: "http_api" }>["config"]> = {}) =>
  ({
    schema_version: 1,
    type: "http_api",
    config: { method: "GET", url: "https://api.example.com/x", timeout_ms: 5000, ...config }
  }) as const satisfies ToolDefinition

export const endCall: ToolDefinition = {
  schema_version: 1,
  type: "end_call",
  config: { messageType: "none" }
}

export const workflow = (fields: Partial<WorkflowDefinition> = {}): WorkflowDefinition => ({
  system_prompt: "You are the shop's agent.",
  first_message: "Hello, how can I help?",
  language: "en",
  nodes: [],
  edges: [],
  gathered_fields: [],
  tools: [],
  ...fields
})

export const agent = (fields: Partial<Agent> = {}): Agent => ({
  id: AgentId.make(7),
  public_id: AgentPublicId.make("agent_abcdefghij0123456789"),
  organization_id: OrganizationId.make(1),
  name: "Shop",
  status: "active",
  current_definition_id: AgentDefinitionId.make(3),
  template_context_variables: {},
  call_disposition_codes: {},
  workflow_configurations: defaultWorkflowConfigurations,
  created_at: epoch,
  updated_at: epoch,
  ...fields
})

export const definition = (fields: Partial<WorkflowDefinition> = {}): AgentDefinition => ({
  id: AgentDefinitionId.make(3),
  agent_id: AgentId.make(7),
  organization_id: OrganizationId.make(1),
  version: 1,
  workflow_definition: workflow(fields),
  created_at: epoch
})

export const said = (role: "user" | "assistant", text: string, seconds: number): TranscriptFragment => ({
  role,
  text,
  timestamp: at(seconds)
})

/** A log line of a tool call made `seconds` after `epoch`. */
export const toolCallLine = (
  toolUuid: string,
  seconds: number,
  fields: Partial<NonNullable<RunLogEntry["tool_call"]>> = {}
): RunLogEntry => ({
  timestamp: at(seconds),
  level: "info",
  message: `Tool ${toolUuid} called`,
  tool_call: {
    tool_uuid: toolUuid,
    tool_type: "http_api",
    arguments: {},
    arguments_truncated: false,
    outcome: "ok",
    error_type: null,
    status_code: 200,
    duration_ms: 10,
    response: null,
    response_truncated: false,
    ...fields
  }
})

/** A log line that is not a tool call. */
export const logLine = (message: string, seconds: number): RunLogEntry => ({
  timestamp: at(seconds),
  level: "info",
  message
})
