import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type {
  Agent,
  AgentDefinition,
  AgentStatus,
  WorkflowConfigurations,
  WorkflowDefinition
} from "./Agent.js"
import type { AgentDefinitionId, AgentId, AgentRef } from "./AgentIds.js"

/** A new agent and its first definition; the store assigns ids and version 1. */
export type NewAgent = Omit<Agent, "id" | "current_definition_id" | "created_at" | "updated_at"> & {
  readonly workflow_definition: WorkflowDefinition
}

/** The agent's fields that can be changed directly (its definition changes only by new versions). */
export type AgentPatch = Partial<
  Pick<Agent, "name" | "status" | "template_context_variables" | "call_disposition_codes">
> & {
  /** Merged into the current configuration in the same atomic update, so concurrent patches keep both. */
  readonly workflow_configurations?: Partial<WorkflowConfigurations>
}

/** An agent together with one of its definitions. */
export interface AgentWithDefinition {
  readonly agent: Agent
  readonly definition: AgentDefinition
}

/** Storage of agents and their definition versions. Every operation is scoped to one organization. */
export class AgentStore extends Context.Tag("@voice-agent-platform/core/AgentStore")<
  AgentStore,
  {
    readonly insert: (agent: NewAgent, now: Date) => Effect.Effect<AgentWithDefinition>
    readonly find: (organizationId: OrganizationId, ref: AgentRef) => Effect.Effect<Option.Option<Agent>>
    readonly list: (
      organizationId: OrganizationId,
      filter: { readonly status?: AgentStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Agent>>
    readonly update: (
      organizationId: OrganizationId,
      id: AgentId,
      patch: AgentPatch,
      now: Date
    ) => Effect.Effect<Option.Option<Agent>>
    readonly findDefinition: (
      organizationId: OrganizationId,
      id: AgentDefinitionId
    ) => Effect.Effect<Option.Option<AgentDefinition>>
    /** Versions of one agent, newest first. */
    readonly listDefinitions: (
      organizationId: OrganizationId,
      agentId: AgentId,
      page: PageRequest
    ) => Effect.Effect<Page<AgentDefinition>>
    /**
     * Adds a version derived from the current one and makes it current, atomically per agent: two
     * appends racing on one agent both land, one after the other, neither losing the other's change.
     */
    readonly appendDefinition: (
      organizationId: OrganizationId,
      agentId: AgentId,
      derive: (current: WorkflowDefinition) => WorkflowDefinition,
      now: Date
    ) => Effect.Effect<Option.Option<AgentWithDefinition>>
  }
>() {}
