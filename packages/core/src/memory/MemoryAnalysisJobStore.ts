import { Effect, Layer } from "effect"
import type { Agent } from "../agents/Agent.js"
import type { AgentId } from "../agents/AgentIds.js"
import type { AnalysisJob, ClaimedAnalysisJob } from "../analysis/AnalysisJob.js"
import { AnalysisJobId } from "../analysis/AnalysisJob.js"
import type { JobClaim } from "../analysis/AnalysisJobStore.js"
import { AnalysisJobStore } from "../analysis/AnalysisJobStore.js"
import type { Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** A job as kept: its lease, when a claim holds it. */
type Row = AnalysisJob & { readonly lease: string | null; readonly lease_until: Date | null }

/**
 * The analysis queue in memory; the analysed-run counts are kept per organization and agent. A run's job
 * goes with the run (`MemoryRunStore.remove`).
 */
export const layer: Layer.Layer<AnalysisJobStore, never, MemoryDatabase> = Layer.effect(
  AnalysisJobStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const jobs = db.table<AnalysisJobId, Row>("analysis_jobs")
    // runs that ever had a call_analysis job: a run is analysed once, also after its job is gone
    const analysedRuns = db.table<string, true>("analysis_job_runs")
    const counts = db.table<string, number>("agent_analysed_runs")
    const runs = db.table<RunId, Run>("runs")
    const agents = db.table<AgentId, Agent>("agents")

    const held = (claim: JobClaim) => {
      const row = jobs.get(claim.id)
      return row !== undefined && row.organization_id === claim.organization_id && row.lease === claim.lease
        ? row
        : undefined
    }

    return AnalysisJobStore.of({
      enqueue: (many, now) =>
        db.atomically(() => {
          for (const job of many) {
            // a job names a run of its organization and agent, or an agent of its organization
            const run = job.run_id === null ? undefined : runs.get(job.run_id)
            const agent = agents.get(job.agent_id)
            if (
              job.kind === "call_analysis"
                ? run?.organization_id !== job.organization_id || run.workflow_id !== job.agent_id
                : agent?.organization_id !== job.organization_id
            )
              continue
            if (job.kind === "call_analysis") {
              const key = `${job.organization_id}:${job.run_id}`
              if (analysedRuns.get(key) !== undefined) continue
              analysedRuns.set(key, true)
            } else if (
              jobs
                .values()
                .some(
                  (row) =>
                    row.kind === "improvement_suggestions" &&
                    row.organization_id === job.organization_id &&
                    row.agent_id === job.agent_id
                )
            ) {
              continue
            }
            const id = AnalysisJobId.make(db.nextId("analysis_jobs"))
            jobs.set(id, {
              ...job,
              id,
              attempts: 0,
              next_attempt_at: now,
              last_error: null,
              created_at: now,
              lease: null,
              lease_until: null
            })
          }
        }),
      claim: (now, leaseUntil, lease, limit) =>
        db.atomically(() =>
          jobs
            .values()
            .filter(
              (row) =>
                row.next_attempt_at.getTime() <= now.getTime() &&
                (row.lease_until === null || row.lease_until.getTime() < now.getTime())
            )
            .sort((a, b) => a.next_attempt_at.getTime() - b.next_attempt_at.getTime() || a.id - b.id)
            .slice(0, Math.max(0, limit))
            .map((row): ClaimedAnalysisJob => {
              const claimed = { ...row, lease, lease_until: leaseUntil }
              jobs.set(row.id, claimed)
              return claimed
            })
        ),
      complete: (claim) => db.atomically(() => (held(claim) === undefined ? false : jobs.delete(claim.id))),
      retry: (claim, nextAttemptAt, error) =>
        db.atomically(() => {
          const row = held(claim)
          if (row === undefined) return false
          jobs.set(row.id, {
            ...row,
            attempts: row.attempts + 1,
            next_attempt_at: nextAttemptAt,
            last_error: error,
            lease: null,
            lease_until: null
          })
          return true
        }),
      release: (claim) =>
        db.atomically(() => {
          const row = held(claim)
          if (row === undefined) return false
          jobs.set(row.id, { ...row, lease: null, lease_until: null })
          return true
        }),
      countAnalysed: (organizationId, agentId) =>
        db.atomically(() => {
          // an agent not of the organization counts nothing
          if (agents.get(agentId)?.organization_id !== organizationId) return 0
          const key = `${organizationId}:${agentId}`
          const next = (counts.get(key) ?? 0) + 1
          counts.set(key, next)
          return next
        }),
      waiting: db.atomically(() => jobs.values().length)
    })
  })
)
