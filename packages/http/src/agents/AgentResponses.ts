import type { Agent, Agents } from "@voice-agent-platform/core"
import type {
  AgentDefinitionResponse,
  AgentResponse
} from "@voice-agent-platform/contract/agents/AgentsApi.js"

/** An agent view in the API's shape. */
export const agentResponse = (view: Agents.AgentView): typeof AgentResponse.Type => ({
  id: view.agent.id,
  workflow_id: view.agent.id,
  public_id: view.agent.public_id,
  name: view.agent.name,
  status: view.agent.status,
  created_at: view.agent.created_at,
  updated_at: view.agent.updated_at,
  workflow_definition: view.definition.workflow_definition,
  current_definition_id: view.agent.current_definition_id,
  template_context_variables: view.agent.template_context_variables,
  call_disposition_codes: view.agent.call_disposition_codes,
  total_runs: view.total_runs,
  workflow_configurations: view.agent.workflow_configurations
})

/** A definition version in the API's shape. */
export const definitionResponse = (
  definition: Agent.AgentDefinition
): typeof AgentDefinitionResponse.Type => ({
  id: definition.id,
  workflow_id: definition.agent_id,
  version: definition.version,
  workflow_definition: definition.workflow_definition,
  created_at: definition.created_at
})
