import { Context, type Effect, type Option } from "effect"
import type { AgentDefinitionId, AgentId } from "../agents/AgentIds.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Improvement, ImprovementId, ImprovementStatus } from "./Improvement.js"

export type NewImprovement = Omit<
  Improvement,
  "id" | "created_at" | "status" | "decided_at" | "applied_definition_id"
>

/** Storage of improvement suggestions. */
export class ImprovementStore extends Context.Tag("@voice-agent-platform/core/ImprovementStore")<
  ImprovementStore,
  {
    readonly insert: (improvement: NewImprovement, now: Date) => Effect.Effect<Improvement>
    readonly find: (
      organizationId: OrganizationId,
      id: ImprovementId
    ) => Effect.Effect<Option.Option<Improvement>>
    readonly list: (
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: { readonly status?: ImprovementStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Improvement>>
    /**
     * Stores a decision only while the stored suggestion is still `pending` (compare-and-set): of two
     * racing decisions exactly one answers Some.
     */
    readonly decideIfPending: (
      organizationId: OrganizationId,
      id: ImprovementId,
      decision: { readonly status: "accepted" | "dismissed"; readonly decided_at: Date }
    ) => Effect.Effect<Option.Option<Improvement>>
    /** Records the definition version an accepted suggestion produced. */
    readonly setAppliedDefinition: (
      organizationId: OrganizationId,
      id: ImprovementId,
      definitionId: AgentDefinitionId
    ) => Effect.Effect<Option.Option<Improvement>>
  }
>() {}
