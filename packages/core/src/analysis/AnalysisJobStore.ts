import { Context, type Effect } from "effect"
import type { AgentId } from "../agents/AgentIds.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { AnalysisJobId, ClaimedAnalysisJob, NewAnalysisJob } from "./AnalysisJob.js"

/** A claimed job, as the writes of its claim name it. */
export interface JobClaim {
  readonly organization_id: OrganizationId
  readonly id: AnalysisJobId
  readonly lease: string
}

/**
 * The durable queue of analysis work (`AnalysisJob`), shared by every server over one database: jobs are
 * claimed with leases (`FOR UPDATE SKIP LOCKED` in SQL, so two servers never claim one job at once), and a
 * claim's writes take effect only while it still holds the job.
 */
export class AnalysisJobStore extends Context.Tag("@voice-agent-platform/core/AnalysisJobStore")<
  AnalysisJobStore,
  {
    /**
     * Adds jobs, due at `now`, in the caller's transaction (a call's end adds its run's analysis with it).
     * A run has at most one `call_analysis` job ever (a repeat is ignored, also after the first finished);
     * an agent has at most one `improvement_suggestions` job waiting (a repeat while one waits is ignored).
     * A job whose run is not of its organization and agent, or whose agent is not of its organization, is
     * not added. A run's job goes when the run is erased.
     */
    readonly enqueue: (jobs: ReadonlyArray<NewAnalysisJob>, now: Date) => Effect.Effect<void>
    /**
     * Claims up to `limit` jobs of every organization that are due (`next_attempt_at` at or before `now`)
     * and not held by a live lease (none, or one that ended before `now`), oldest due first: each gets
     * `lease` and `lease_until`, and its attempts are not changed. Two claims at once never get one job.
     */
    readonly claim: (
      now: Date,
      leaseUntil: Date,
      lease: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedAnalysisJob>>
    /**
     * Removes the job if `claim` still holds it (its lease is the job's), answering whether it did: a
     * claim whose lease was taken over (it ran out, another server claimed the job) removes nothing, and
     * must then write nothing of its result. Meant to run in the transaction that writes the result.
     */
    readonly complete: (claim: JobClaim) => Effect.Effect<boolean>
    /**
     * Gives the job back for another attempt at `nextAttemptAt`, one more attempt counted and `error`
     * kept, if `claim` still holds it; answers whether it did.
     */
    readonly retry: (claim: JobClaim, nextAttemptAt: Date, error: string) => Effect.Effect<boolean>
    /**
     * Gives the job back as it was claimed (due as before, no attempt counted) if `claim` still holds it, so
     * another server can claim it at once: a server that stops mid-job releases it rather than leave it
     * until its lease runs out. Answers whether it did.
     */
    readonly release: (claim: JobClaim) => Effect.Effect<boolean>
    /**
     * Counts one more analysed run of the agent and answers the agent's count (1 after its first): a
     * generation of suggestions is due every `IMPROVEMENTS_EVERY_RUNS` of them. Atomic per agent. An agent
     * not of the organization counts nothing (answers 0).
     */
    readonly countAnalysed: (organizationId: OrganizationId, agentId: AgentId) => Effect.Effect<number>
    /** Jobs waiting or held, of every organization: a gauge for operators. */
    readonly waiting: Effect.Effect<number>
  }
>() {}
