import * as Agent from "@voice-agent-platform/core/agents/Agent.js"
import * as DefinitionChanges from "@voice-agent-platform/core/agents/DefinitionChanges.js"
import type * as RuntimeTools from "@voice-agent-platform/core/calls/RuntimeTools.js"
import * as ToolCallLog from "@voice-agent-platform/core/tools/ToolCallLog.js"
import { Schema } from "effect"
import { JsonObject, strict } from "../shared/Json.js"
import { Timestamp } from "../shared/Timestamp.js"
import { toolResponse } from "../tools/ToolResponses.js"
import { ToolResponse } from "../tools/ToolsApi.js"

/** `GET /runtime/v1/runs/{run_id}/agent`: the agent version the run was placed with. */
export const RuntimeAgentResponse = Schema.Struct({
  workflow_run_id: Schema.Int,
  workflow_id: Schema.Int,
  agent_definition_id: Schema.Int,
  version: Schema.Int,
  name: Schema.String,
  system_prompt: Schema.String,
  first_message: Schema.String,
  language: Schema.String,
  gathered_fields: Schema.Array(Agent.GatheredField),
  tools: Schema.Array(ToolResponse),
  transfer_numbers: Schema.Array(Schema.String),
  created_at: Timestamp
}).annotations({ identifier: "RuntimeAgent" })

/** `POST /runtime/v1/runs/{run_id}/tool-calls`. */
export const RuntimeToolCallRequest = strict(
  Schema.Struct({
    tool_uuid: Schema.String.pipe(
      Schema.minLength(1),
      Schema.maxLength(DefinitionChanges.limits.toolUuidChars)
    ),
    arguments: Schema.optionalWith(JsonObject, { exact: true })
  }).annotations({ identifier: "RuntimeToolCall" })
)

/** The agent version in the runtime's shape: tools without secrets. */
export const agentResponse = (version: RuntimeTools.RunAgentVersion): typeof RuntimeAgentResponse.Type => ({
  workflow_run_id: version.run.workflow_run_id,
  workflow_id: version.agent.id,
  agent_definition_id: version.definition.id,
  version: version.definition.version,
  name: version.agent.name,
  system_prompt: version.system_prompt,
  first_message: version.first_message,
  language: version.definition.workflow_definition.language,
  gathered_fields: version.definition.workflow_definition.gathered_fields,
  tools: version.tools.map(toolResponse),
  transfer_numbers: version.transfer_numbers,
  created_at: version.definition.created_at
})

/** The bound of a run's tool calls, for the endpoint's description. */
export const toolCallsPerRun = ToolCallLog.maxToolCallsPerRun
