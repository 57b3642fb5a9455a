import { Context, type Effect, type Option } from "effect"
import type { AgentId } from "../agents/AgentIds.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { Run, RunStatus } from "./Run.js"
import type { RunId } from "./RunId.js"

export type NewRun = Omit<Run, "workflow_run_id" | "created_at">

/** The run fields that change during and after a call. */
export type RunPatch = Partial<
  Pick<
    Run,
    | "status"
    | "initial_context"
    | "gathered_context"
    | "duration_seconds"
    | "cost"
    | "disposition"
    | "logs"
    | "sms"
    | "integration_deliveries"
    | "files"
    | "channel_reservation_id"
    | "ended_at"
  >
>

export interface RunFilter {
  readonly status?: RunStatus
  readonly created_after?: Date
  readonly created_before?: Date
}

/** Storage of runs. Every operation is scoped to one organization. */
export class RunStore extends Context.Tag("@voice-agent-platform/core/RunStore")<
  RunStore,
  {
    readonly insert: (run: NewRun, now: Date) => Effect.Effect<Run>
    readonly find: (organizationId: OrganizationId, id: RunId) => Effect.Effect<Option.Option<Run>>
    /** Runs of one agent, newest first. */
    readonly list: (
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: RunFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Run>>
    readonly update: (
      organizationId: OrganizationId,
      id: RunId,
      patch: RunPatch
    ) => Effect.Effect<Option.Option<Run>>
    readonly countByAgent: (organizationId: OrganizationId, agentId: AgentId) => Effect.Effect<number>
    /** Erases the run record; it is gone from every read afterwards. Answers the erased run. */
    readonly remove: (organizationId: OrganizationId, id: RunId) => Effect.Effect<Option.Option<Run>>
  }
>() {}
