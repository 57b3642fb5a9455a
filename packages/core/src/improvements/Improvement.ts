import { Schema } from "effect"
import { AgentDefinitionId, AgentId } from "../agents/AgentIds.js"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"

export const ImprovementId = Schema.Int.pipe(Schema.positive(), Schema.brand("ImprovementId"))
export type ImprovementId = typeof ImprovementId.Type

export const ImprovementStatus = Schema.Literal("pending", "accepted", "dismissed")
export type ImprovementStatus = typeof ImprovementStatus.Type

/** A suggested addition to an agent's system prompt; nothing changes until it is accepted. */
export const Improvement = Schema.Struct({
  id: ImprovementId,
  organization_id: OrganizationId,
  agent_id: AgentId,
  status: ImprovementStatus,
  text: Schema.String,
  rationale: Schema.NullOr(Schema.String),
  source_run_id: Schema.NullOr(RunId),
  created_at: Schema.DateFromSelf,
  decided_at: Schema.NullOr(Schema.DateFromSelf),
  /** The definition version that accepting it produced. */
  applied_definition_id: Schema.NullOr(AgentDefinitionId)
})
export type Improvement = typeof Improvement.Type
