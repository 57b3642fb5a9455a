import { Effect, Layer, Option } from "effect"
import type { AnalysisJob, AnalysisJobId } from "../analysis/AnalysisJob.js"
import type { Agent } from "../agents/Agent.js"
import type { AgentId } from "../agents/AgentIds.js"
import * as EncodedPage from "../pagination/EncodedPage.js"
import * as Page from "../pagination/Page.js"
import type { PageRequest } from "../pagination/Page.js"
import type { OrganizationId } from "../organizations/Organization.js"
import * as RunSummaryJson from "../runs/RunSummaryJson.js"
import type { Run, RunListing } from "../runs/Run.js"
import { isFinal, isLive, matchesFilter, newRunDefaults } from "../runs/Run.js"
import { RunId } from "../runs/RunId.js"
import type { EndedRunCursor, RunFilter } from "../runs/RunStore.js"
import { RunStore } from "../runs/RunStore.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { organizationTable } from "./OrganizationTable.js"

/** An ended run that still has a file key. */
const endedWithFile = (run: Run): run is Run & { readonly ended_at: Date } =>
  run.ended_at !== null && (run.files.recording !== null || run.files.transcript !== null)

/** The (ended_at, id) order of retention sweeps. */
const compareEnded = (
  a: Pick<Run, "ended_at" | "workflow_run_id">,
  b: Pick<Run, "ended_at" | "workflow_run_id"> | EndedRunCursor
): number =>
  (a.ended_at?.getTime() ?? 0) - (b.ended_at?.getTime() ?? 0) || a.workflow_run_id - b.workflow_run_id

/** Runs in memory. */
export const layer: Layer.Layer<RunStore, never, MemoryDatabase> = Layer.effect(
  RunStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    // who holds each run's conversation turn, and until when
    const turns = db.table<string, { readonly holder: string; readonly until: Date }>("run_turns")
    const turnKey = (organizationId: number, id: number) => `${organizationId}:${id}`
    const runs = organizationTable(db.table<RunId, Run>("runs"), {
      at: (r) => r.created_at,
      id: (r) => r.workflow_run_id
    })
    const analysisJobs = db.table<AnalysisJobId, AnalysisJob>("analysis_jobs")
    // each carrier-dialed run's call id, and whether its media socket was taken
    const carrierCalls = db.table<RunId, { readonly callId: string; readonly mediaTaken: boolean }>(
      "run_carrier_calls"
    )
    const agents = db.table<AgentId, Agent>("agents")
    /** One agent's runs, newest first: the page its list (and its encoded list) answers. */
    const agentPage = (
      organizationId: OrganizationId,
      agentId: AgentId,
      filter: RunFilter,
      page: PageRequest
    ) => runs.newestPage(organizationId, page, (r) => r.workflow_id === agentId && matchesFilter(r, filter))
    return {
      insert: (run, now) =>
        db.atomically(() => {
          const row: Run = {
            ...run,
            ...newRunDefaults,
            workflow_run_id: RunId.make(db.nextId("runs")),
            created_at: now
          }
          runs.set(row.workflow_run_id, row)
          return row
        }),
      insertMany: (many, now) =>
        db.atomically(() =>
          many.map((run) => {
            const row: Run = {
              ...run,
              ...newRunDefaults,
              workflow_run_id: RunId.make(db.nextId("runs")),
              created_at: now
            }
            runs.set(row.workflow_run_id, row)
            return row
          })
        ),
      find: (organizationId, id) => db.atomically(() => runs.findOwn(organizationId, id)),
      // In memory a transaction already excludes every other access: there is nothing more to hold.
      findForUpdate: (organizationId, id) => db.atomically(() => runs.findOwn(organizationId, id)),
      findManyForUpdate: (keys) =>
        db.atomically(() =>
          keys.flatMap((key) => Option.toArray(runs.findOwn(key.organization_id, key.workflow_run_id)))
        ),
      endMany: (ends) =>
        db.atomically(() =>
          ends.flatMap((end) =>
            Option.toArray(
              runs.replaceOwn(end.organization_id, end.workflow_run_id, (run) => ({
                ...run,
                status: end.status,
                duration_seconds: end.duration_seconds,
                cost: end.cost,
                model_cost: end.model_cost,
                analysis_status: end.analysis_status,
                ended_at: end.ended_at,
                channel_reservation_id: null
              }))
            )
          )
        ),
      findAnyOrganization: (id) => db.atomically(() => Option.fromNullable(runs.get(id))),
      recordCarrierCall: (id, callId) =>
        db.atomically(() => {
          if (runs.get(id) !== undefined && carrierCalls.get(id) === undefined)
            carrierCalls.set(id, { callId, mediaTaken: false })
        }),
      carrierCallOf: (id) => db.atomically(() => Option.fromNullable(carrierCalls.get(id)?.callId)),
      claimMedia: (id, callId) =>
        db.atomically(() => {
          const run = runs.get(id)
          const call = carrierCalls.get(id)
          if (run === undefined || run.mode !== "phone" || !isLive(run.status)) return false
          if (call === undefined || call.callId !== callId || call.mediaTaken) return false
          carrierCalls.set(id, { callId, mediaTaken: true })
          return true
        }),
      list: (organizationId, agentId, filter, page) =>
        db.atomically(() => agentPage(organizationId, agentId, filter, page)),
      listEncoded: (organizationId, agentId, filter, page) =>
        db.atomically(() => {
          const found = agentPage(organizationId, agentId, filter, page)
          return EncodedPage.make(RunSummaryJson.itemsJson(found.items), found.total_count, page)
        }),
      listAcrossAgents: (organizationId, filter, page) =>
        db.atomically(() =>
          Page.map(
            runs.newestPage(
              organizationId,
              page,
              (r) =>
                (filter.agent_id === undefined || r.workflow_id === filter.agent_id) &&
                matchesFilter(r, filter)
            ),
            (run): RunListing => {
              const agent = agents.get(run.workflow_id)
              if (agent === undefined) throw new Error(`run ${run.workflow_run_id} has no agent`)
              return { ...run, agent_public_id: agent.public_id, agent_name: agent.name }
            }
          )
        ),
      update: (organizationId, id, patch) =>
        db.atomically(() => runs.replaceOwn(organizationId, id, (run) => ({ ...run, ...patch }))),
      appendLogWhileLive: (organizationId, id, entry) =>
        db.atomically(() =>
          Option.flatMap(runs.findOwn(organizationId, id), (run) =>
            isFinal(run.status)
              ? Option.none()
              : runs.replaceOwn(organizationId, id, () => ({ ...run, logs: [...run.logs, entry] }))
          )
        ),
      addModelUsage: (organizationId, id, usage, lastActivityAt) =>
        db.atomically(() =>
          runs.replaceOwn(organizationId, id, (run) => ({
            ...run,
            model_prompt_tokens: run.model_prompt_tokens + usage.prompt_tokens,
            model_completion_tokens: run.model_completion_tokens + usage.completion_tokens,
            ...(lastActivityAt === undefined ? {} : { last_activity_at: lastActivityAt })
          }))
        ),
      idleChats: (lastActiveBefore, limit) =>
        db.atomically(() =>
          runs
            .values()
            .filter(
              (r) =>
                r.mode === "chat" &&
                (r.status === "in_progress" || r.status === "initialized") &&
                r.last_activity_at !== null &&
                r.last_activity_at.getTime() < lastActiveBefore.getTime()
            )
            .sort(
              (a, b) =>
                a.last_activity_at!.getTime() - b.last_activity_at!.getTime() ||
                a.workflow_run_id - b.workflow_run_id
            )
            .slice(0, limit)
        ),
      takeTurn: (organizationId, id, holder, until, now) =>
        db.atomically(() => {
          const run = runs.findOwn(organizationId, id)
          if (Option.isNone(run)) return run
          const key = turnKey(organizationId, id)
          const current = turns.get(key)
          if (current !== undefined && current.holder !== holder && current.until.getTime() > now.getTime()) {
            return Option.none()
          }
          turns.set(key, { holder, until })
          return run
        }),
      releaseTurn: (organizationId, id, holder) =>
        db.atomically(() => {
          const key = turnKey(organizationId, id)
          if (turns.get(key)?.holder === holder) turns.delete(key)
        }),
      countByAgent: (organizationId, agentId) =>
        db.atomically(() => runs.ownRows(organizationId, (r) => r.workflow_id === agentId).length),
      remove: (organizationId, id) =>
        db.atomically(() => {
          turns.delete(turnKey(organizationId, id))
          const removed = runs.removeOwn(organizationId, id)
          // its analysis job goes with it, as the SQL queue's foreign key has it
          if (Option.isSome(removed))
            for (const job of analysisJobs.values()) if (job.run_id === id) analysisJobs.delete(job.id)
          return removed
        }),
      organizationsWithFiles: db.atomically(() =>
        Array.from(
          new Set(
            runs
              .values()
              .filter(endedWithFile)
              .map((r) => r.organization_id)
          )
        )
      ),
      endedWithFiles: (organizationId, endedBy, after, limit) =>
        db.atomically(() =>
          runs
            .ownRows(
              organizationId,
              (r) =>
                endedWithFile(r) &&
                r.ended_at.getTime() <= endedBy.getTime() &&
                (after === null || compareEnded(r, after) > 0)
            )
            .sort(compareEnded)
            .slice(0, limit)
        ),
      liveCreatedBy: (createdBy, limit) =>
        db.atomically(() =>
          runs
            .values()
            .filter(
              (r) => isLive(r.status) && r.mode !== "chat" && r.created_at.getTime() <= createdBy.getTime()
            )
            .sort(
              (a, b) =>
                a.created_at.getTime() - b.created_at.getTime() || a.workflow_run_id - b.workflow_run_id
            )
            .slice(0, limit)
        )
    }
  })
)
