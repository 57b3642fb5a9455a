import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"
import { AgentDefinitionId, AgentId, AgentPublicId } from "./AgentIds.js"

export const AgentStatus = Schema.Literal("active", "archived")
export type AgentStatus = typeof AgentStatus.Type

/** One step of the conversation plan. */
export const PlanStep = Schema.Struct({
  title: Schema.String,
  description: Schema.NullOr(Schema.String)
})
export type PlanStep = typeof PlanStep.Type

/** A field the agent gathers during the call; together they are the run's `gathered_context` schema. */
export const GatheredField = Schema.Struct({
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: Schema.Literal("string", "number", "boolean", "date")
})
export type GatheredField = typeof GatheredField.Type

/** A node of the conversation graph: the start, one per plan step, and the end. */
export const GraphNode = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal("start", "step", "end"),
  title: Schema.String,
  description: Schema.NullOr(Schema.String)
})
export type GraphNode = typeof GraphNode.Type

export const GraphEdge = Schema.Struct({ from: Schema.String, to: Schema.String })
export type GraphEdge = typeof GraphEdge.Type

/** A tool the agent can use during a call, by reference. */
export const AgentToolRef = Schema.Union(
  Schema.Struct({ type: Schema.Literal("tool"), tool_uuid: Schema.String }),
  Schema.Struct({ type: Schema.Literal("booking"), scheduler_connection_id: Schema.String })
)
export type AgentToolRef = typeof AgentToolRef.Type

/** What the agent says and does: its prompt, first message and conversation graph. */
export const WorkflowDefinition = Schema.Struct({
  system_prompt: Schema.String,
  first_message: Schema.String,
  language: Schema.String,
  nodes: Schema.Array(GraphNode),
  edges: Schema.Array(GraphEdge),
  gathered_fields: Schema.Array(GatheredField),
  tools: Schema.Array(AgentToolRef),
  /**
   * The numbers a transfer tool of this version may use when the model names one (E.164). Set by every
   * version made since they became part of the definition, and by schema version 5 on each agent's
   * then-current version; only an older, non-current version lacks them (its agent's
   * `workflow_configurations.transfer_numbers` stand in).
   */
  transfer_numbers: Schema.optionalWith(Schema.Array(Schema.String), { exact: true }),
  /**
   * The knowledge-base documents the agent answers from (their integer ids): for each turn of a
   * conversation the most relevant chunks of these are given to the model. None when absent.
   */
  knowledge_base_document_ids: Schema.optionalWith(Schema.Array(Schema.Int), { exact: true })
})
export type WorkflowDefinition = typeof WorkflowDefinition.Type

/** The conversation plan of a definition: its step nodes, in graph order. */
export const planOf = (workflow: WorkflowDefinition): ReadonlyArray<PlanStep> =>
  workflow.nodes
    .filter((node) => node.type === "step")
    .map((node) => ({ title: node.title, description: node.description }))

/** The longest a call of an agent may last when nobody configured it. */
export const defaultMaxCallDurationSeconds = 600

/** The bounds of an agent's model choice (docs/limits.md). */
export const modelChoiceLimits = { modelChars: 200, maxTemperature: 2, maxTokens: 32_768 } as const

/**
 * The language model an agent talks with, when not the deployment's (`LLM_MODEL`, `LLM_MAX_TOKENS`):
 * another model on the same provider, its sampling temperature, its longest reply in tokens.
 */
export const ModelChoice = Schema.Struct({
  model: Schema.optionalWith(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(modelChoiceLimits.modelChars)),
    { exact: true }
  ),
  temperature: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, modelChoiceLimits.maxTemperature)), {
    exact: true
  }),
  max_tokens: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, modelChoiceLimits.maxTokens)), {
    exact: true
  })
}).annotations({ identifier: "ModelChoice" })
export type ModelChoice = typeof ModelChoice.Type

/** Settings of an agent that are not part of its prompt. */
export const WorkflowConfigurations = Schema.Struct({
  /** A call that outlives this (plus a grace) loses its outbound channel. */
  max_call_duration_seconds: Schema.Int.pipe(Schema.between(10, 4 * 60 * 60)),
  /** Numbers a transfer tool may use when the model names one (E.164). */
  transfer_numbers: Schema.Array(Schema.String),
  voice: Schema.NullOr(Schema.String),
  /** The agent's language model, when not the deployment's. */
  model: Schema.optionalWith(ModelChoice, { exact: true })
})
export type WorkflowConfigurations = typeof WorkflowConfigurations.Type

/** Configuration of a new agent when the request sets none. */
export const defaultWorkflowConfigurations: WorkflowConfigurations = {
  max_call_duration_seconds: defaultMaxCallDurationSeconds,
  transfer_numbers: [],
  voice: null
}

/** A voice agent. Its behaviour lives in versioned definitions; `current_definition_id` is the live one. */
export const Agent = Schema.Struct({
  id: AgentId,
  public_id: AgentPublicId,
  organization_id: OrganizationId,
  name: Schema.String,
  status: AgentStatus,
  current_definition_id: AgentDefinitionId,
  template_context_variables: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  call_disposition_codes: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  workflow_configurations: WorkflowConfigurations,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
})
export type Agent = typeof Agent.Type

/** One version of an agent's definition; versions are never changed, only added. */
export const AgentDefinition = Schema.Struct({
  id: AgentDefinitionId,
  agent_id: AgentId,
  organization_id: OrganizationId,
  version: Schema.Int.pipe(Schema.positive()),
  workflow_definition: WorkflowDefinition,
  created_at: Schema.DateFromSelf
})
export type AgentDefinition = typeof AgentDefinition.Type
