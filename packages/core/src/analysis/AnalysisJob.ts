import { Schema } from "effect"
import { AgentId } from "../agents/AgentIds.js"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"

export const AnalysisJobId = Schema.Int.pipe(Schema.positive(), Schema.brand("AnalysisJobId"))
export type AnalysisJobId = typeof AnalysisJobId.Type

/**
 * The work a language model does after conversations, named as its structured output is: `call_analysis`
 * reads one ended run (gathered data, disposition, summary); `improvement_suggestions` reads an agent's
 * recent runs and proposes changes to its prompt.
 */
export const AnalysisJobKind = Schema.Literal("call_analysis", "improvement_suggestions")
export type AnalysisJobKind = typeof AnalysisJobKind.Type

/**
 * A durable piece of that work, waiting or being done. A server claims it for a while (a lease); a server
 * that dies mid-job loses the lease, and another takes the job over when it expires. A job is done when
 * its result is written, in one transaction with removing the job, by the claim that still holds it.
 */
export const AnalysisJob = Schema.Struct({
  id: AnalysisJobId,
  organization_id: OrganizationId,
  kind: AnalysisJobKind,
  /** The run a `call_analysis` reads; null for `improvement_suggestions`. */
  run_id: Schema.NullOr(RunId),
  agent_id: AgentId,
  /** Attempts that failed so far. */
  attempts: Schema.NonNegativeInt,
  /** When it may be tried (again). */
  next_attempt_at: Schema.DateFromSelf,
  /** Why the last attempt failed; null before any did. */
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf
})
export type AnalysisJob = typeof AnalysisJob.Type

/** A job to add: it is due at once. */
export interface NewAnalysisJob {
  readonly organization_id: OrganizationId
  readonly kind: AnalysisJobKind
  readonly run_id: RunId | null
  readonly agent_id: AgentId
}

/** A job as a claim holds it: `lease` is the claim's token, which every later write of the job must show. */
export interface ClaimedAnalysisJob extends AnalysisJob {
  readonly lease: string
  readonly lease_until: Date
}
