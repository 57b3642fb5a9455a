import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import type { ClaimedAnalysisJob, NewAnalysisJob } from "../src/analysis/AnalysisJob.js"
import { AnalysisJobStore } from "../src/analysis/AnalysisJobStore.js"
import type { AgentId } from "../src/agents/AgentIds.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Run } from "../src/runs/Run.js"
import { Transactions } from "../src/storage/Transactions.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

/**
 * Instants of a test's own era: `seconds` after the start of `year`. Claims take the due jobs of every
 * organization, so each test works in an era before the previous test's (and long before any other
 * section's jobs): the jobs an earlier test left are never due for a later one's claims.
 */
const era = (year: number) => (seconds: number) => new Date(Date.UTC(year, 0, 1) + seconds * 1000)

/** A run's analysis job. */
const analysisOf = (run: Run): NewAnalysisJob => ({
  organization_id: run.organization_id,
  kind: "call_analysis",
  run_id: run.workflow_run_id,
  agent_id: run.workflow_id
})

/** An agent's improvements job. */
const improvementsOf = (organizationId: OrganizationId, agentId: AgentId): NewAnalysisJob => ({
  organization_id: organizationId,
  kind: "improvement_suggestions",
  run_id: null,
  agent_id: agentId
})

/** A stored run of a fresh agent of a fresh organization. */
const storedRun = Effect.gen(function* () {
  const org = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(org.id)
  const run = yield* (yield* RunStore).insert(Fixtures.newRun(org.id, agent.id), at(0))
  return { org, agent, run }
})

const claimOf = (job: ClaimedAnalysisJob) => ({
  organization_id: job.organization_id,
  id: job.id,
  lease: job.lease
})

/** The storage contract for the analysis job queue; `storeContract` runs it against every adapter. */
export const analysisJobStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("analysis jobs", () => {
    it.effect("give a run one call_analysis job ever: repeats, batches and a finished job add none", () =>
      Effect.gen(function* () {
        const jobs = yield* AnalysisJobStore
        const transactions = yield* Transactions
        const t = era(1999)
        const { run } = yield* storedRun
        const before = yield* jobs.waiting
        // a rolled-back enqueue adds nothing, and leaves the run free to be given its job
        yield* Effect.either(
          transactions.run(Effect.zipRight(jobs.enqueue([analysisOf(run)], t(0)), Effect.fail("undone")))
        )
        expect(yield* jobs.waiting).toBe(before)
        yield* jobs.enqueue([analysisOf(run), analysisOf(run)], t(0))
        yield* jobs.enqueue([analysisOf(run)], t(1))
        expect(yield* jobs.waiting).toBe(before + 1)
        const claimed = yield* jobs.claim(t(5), t(65), "lease-1", 10)
        expect(claimed).toEqual([
          {
            id: claimed[0]!.id,
            organization_id: run.organization_id,
            kind: "call_analysis",
            run_id: run.workflow_run_id,
            agent_id: run.workflow_id,
            attempts: 0,
            next_attempt_at: t(0),
            last_error: null,
            created_at: t(0),
            lease: "lease-1",
            lease_until: t(65)
          }
        ])
        expect(yield* jobs.complete(claimOf(claimed[0]!))).toBe(true)
        expect(yield* jobs.waiting).toBe(before)
        // the run was analysed: it is never given another job
        yield* jobs.enqueue([analysisOf(run)], t(100))
        expect(yield* jobs.waiting).toBe(before)
        expect(yield* jobs.claim(t(200), t(260), "lease-2", 10)).toEqual([])
      })
    )

    it.effect(
      "keep one improvement_suggestions job of an agent waiting or held, another once it is done",
      () =>
        Effect.gen(function* () {
          const jobs = yield* AnalysisJobStore
          const t = era(1998)
          const org = yield* Fixtures.organization()
          const { agent: first } = yield* Fixtures.agent(org.id)
          const { agent: second } = yield* Fixtures.agent(org.id)
          const before = yield* jobs.waiting
          yield* jobs.enqueue([improvementsOf(org.id, first.id), improvementsOf(org.id, first.id)], t(0))
          yield* jobs.enqueue([improvementsOf(org.id, first.id), improvementsOf(org.id, second.id)], t(1))
          expect(yield* jobs.waiting).toBe(before + 2)
          const claimed = yield* jobs.claim(t(10), t(70), "lease", 10)
          expect(claimed.map((job) => [job.agent_id, job.kind, job.run_id, job.next_attempt_at])).toEqual([
            [first.id, "improvement_suggestions", null, t(0)],
            [second.id, "improvement_suggestions", null, t(1)]
          ])
          // held is still waiting to be done: a repeat is ignored
          yield* jobs.enqueue([improvementsOf(org.id, first.id)], t(20))
          expect(yield* jobs.waiting).toBe(before + 2)
          expect(yield* jobs.complete(claimOf(claimed[0]!))).toBe(true)
          yield* jobs.enqueue([improvementsOf(org.id, first.id)], t(30))
          expect(yield* jobs.waiting).toBe(before + 2)
          const again = yield* jobs.claim(t(40), t(100), "lease", 10)
          expect(again.map((job) => [job.agent_id, job.next_attempt_at])).toEqual([[first.id, t(30)]])
          for (const job of [claimed[1]!, again[0]!]) expect(yield* jobs.complete(claimOf(job))).toBe(true)
          expect(yield* jobs.waiting).toBe(before)
        })
    )

    it.effect(
      "add no job naming another organization's run or agent, and write only for the organization",
      () =>
        Effect.gen(function* () {
          const jobs = yield* AnalysisJobStore
          const t = era(1997)
          const { org, agent, run } = yield* storedRun
          const stranger = yield* Fixtures.organization()
          const { agent: strangersAgent } = yield* Fixtures.agent(stranger.id)
          const { agent: colleague } = yield* Fixtures.agent(org.id)
          const before = yield* jobs.waiting
          yield* jobs.enqueue(
            [
              { ...analysisOf(run), organization_id: stranger.id },
              { ...analysisOf(run), agent_id: colleague.id },
              improvementsOf(stranger.id, agent.id),
              improvementsOf(org.id, strangersAgent.id)
            ],
            t(0)
          )
          expect(yield* jobs.waiting).toBe(before)
          // none of those marked the run: its own job is still added
          yield* jobs.enqueue([analysisOf(run)], t(0))
          const [claimed] = yield* jobs.claim(t(1), t(61), "mine", 10)
          expect(claimed?.run_id).toBe(run.workflow_run_id)
          const foreign = { ...claimOf(claimed!), organization_id: stranger.id }
          expect(yield* jobs.complete(foreign)).toBe(false)
          expect(yield* jobs.retry(foreign, t(2), "not theirs")).toBe(false)
          expect(yield* jobs.complete(claimOf(claimed!))).toBe(true)
          // counts are the organization's agents' only
          expect(yield* jobs.countAnalysed(stranger.id, agent.id)).toBe(0)
          expect(yield* jobs.countAnalysed(org.id, agent.id)).toBe(1)
          expect(yield* jobs.countAnalysed(org.id, strangersAgent.id)).toBe(0)
        })
    )

    it.effect("hand each due job to one of many simultaneous claims, oldest due first", () =>
      Effect.gen(function* () {
        const jobs = yield* AnalysisJobStore
        const t = era(1996)
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const runs = yield* (yield* RunStore).insertMany(
          Array.from({ length: 20 }, () => Fixtures.newRun(org.id, agent.id)),
          at(0)
        )
        // due one second apart, in the runs' order
        yield* Effect.forEach(runs, (run, i) => jobs.enqueue([analysisOf(run)], t(i)), { discard: true })
        const dueOrder = runs.map((run) => run.workflow_run_id)
        expect(yield* jobs.claim(t(-1), t(59), "early", 10)).toEqual([])
        const claims = yield* Effect.all(
          Array.from({ length: 4 }, (_, i) => jobs.claim(t(100), t(160), `lease-${i}`, 3)),
          { concurrency: "unbounded" }
        )
        const taken = claims.flat()
        // disjoint, three each, and together the twelve oldest; each claim answers oldest first
        expect(claims.map((claim) => claim.length)).toEqual([3, 3, 3, 3])
        expect(new Set(taken.map((job) => job.id)).size).toBe(12)
        expect(taken.map((job) => job.run_id).sort()).toEqual(dueOrder.slice(0, 12).sort())
        for (const [i, claim] of claims.entries()) {
          expect(
            claim.every((job) => job.lease === `lease-${i}` && job.lease_until.getTime() === t(160).getTime())
          ).toBe(true)
          const due = claim.map((job) => job.next_attempt_at.getTime())
          expect(due).toEqual([...due].sort((a, b) => a - b))
        }
        // held jobs are not claimed again while their leases last: the rest are
        const rest = yield* jobs.claim(t(101), t(161), "rest", 50)
        expect(rest.map((job) => job.run_id)).toEqual(dueOrder.slice(12))
        for (const job of [...taken, ...rest]) expect(yield* jobs.complete(claimOf(job))).toBe(true)
      })
    )

    it.effect("let another claim take a job whose lease ran out; the stale claim then writes nothing", () =>
      Effect.gen(function* () {
        const jobs = yield* AnalysisJobStore
        const t = era(1995)
        const { run } = yield* storedRun
        yield* jobs.enqueue([analysisOf(run)], t(0))
        const [first] = yield* jobs.claim(t(1), t(61), "first", 10)
        expect(first?.run_id).toBe(run.workflow_run_id)
        // a lease holds up to its end, inclusive
        expect(yield* jobs.claim(t(61), t(121), "second", 10)).toEqual([])
        const [second] = yield* jobs.claim(t(62), t(122), "second", 10)
        expect(second).toMatchObject({ id: first!.id, lease: "second", attempts: 0, next_attempt_at: t(0) })
        expect(yield* jobs.complete(claimOf(first!))).toBe(false)
        expect(yield* jobs.retry(claimOf(first!), t(63), "stale")).toBe(false)
        // the holder's retry counts an attempt, keeps the error and gives the job back for later
        expect(yield* jobs.retry(claimOf(second!), t(200), "model unavailable")).toBe(true)
        expect(yield* jobs.retry(claimOf(second!), t(300), "twice")).toBe(false)
        expect(yield* jobs.claim(t(199), t(259), "early", 10)).toEqual([])
        const [third] = yield* jobs.claim(t(200), t(260), "third", 10)
        expect(third).toMatchObject({
          id: first!.id,
          attempts: 1,
          last_error: "model unavailable",
          next_attempt_at: t(200),
          lease: "third"
        })
        expect(yield* jobs.retry(claimOf(third!), t(300), "again")).toBe(true)
        const [fourth] = yield* jobs.claim(t(300), t(360), "fourth", 10)
        expect(fourth).toMatchObject({ attempts: 2, last_error: "again", next_attempt_at: t(300) })
        expect(yield* jobs.complete(claimOf(third!))).toBe(false)
        expect(yield* jobs.complete(claimOf(fourth!))).toBe(true)
        expect(yield* jobs.complete(claimOf(fourth!))).toBe(false)
      })
    )

    it.effect(
      "let a holder release its job: claimable again at once, as it was; a stale claim releases nothing",
      () =>
        Effect.gen(function* () {
          const jobs = yield* AnalysisJobStore
          const t = era(1993)
          const { run } = yield* storedRun
          yield* jobs.enqueue([analysisOf(run)], t(0))
          const [first] = yield* jobs.claim(t(1), t(61), "first", 10)
          expect(yield* jobs.release({ ...claimOf(first!), lease: "someone else" })).toBe(false)
          expect(yield* jobs.claim(t(2), t(62), "second", 10)).toEqual([])
          expect(yield* jobs.release(claimOf(first!))).toBe(true)
          expect(yield* jobs.release(claimOf(first!))).toBe(false)
          const [second] = yield* jobs.claim(t(2), t(62), "second", 10)
          expect(second).toMatchObject({ id: first!.id, lease: "second", attempts: 0, next_attempt_at: t(0) })
          expect(yield* jobs.complete(claimOf(first!))).toBe(false)
          expect(yield* jobs.complete(claimOf(second!))).toBe(true)
        })
    )

    it.effect("count waiting and held jobs; a run's job goes with the run", () =>
      Effect.gen(function* () {
        const jobs = yield* AnalysisJobStore
        const runs = yield* RunStore
        const t = era(1994)
        const { org, agent, run } = yield* storedRun
        const erased = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const before = yield* jobs.waiting
        yield* jobs.enqueue([analysisOf(run), analysisOf(erased), improvementsOf(org.id, agent.id)], t(0))
        expect(yield* jobs.waiting).toBe(before + 3)
        yield* runs.remove(org.id, erased.workflow_run_id)
        expect(yield* jobs.waiting).toBe(before + 2)
        const claimed = yield* jobs.claim(t(1), t(61), "lease", 10)
        expect(claimed.map((job) => job.run_id).sort()).toEqual([null, run.workflow_run_id].sort())
        expect(yield* jobs.waiting).toBe(before + 2)
        for (const job of claimed) yield* jobs.complete(claimOf(job))
        expect(yield* jobs.waiting).toBe(before)
      })
    )

    it.effect("count an agent's analysed runs one by one, also when counted at once", () =>
      Effect.gen(function* () {
        const jobs = yield* AnalysisJobStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: other } = yield* Fixtures.agent(org.id)
        const counts = yield* Effect.all(
          Array.from({ length: 25 }, () => jobs.countAnalysed(org.id, agent.id)),
          { concurrency: "unbounded" }
        )
        expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
        expect(yield* jobs.countAnalysed(org.id, other.id)).toBe(1)
        expect(yield* jobs.countAnalysed(org.id, agent.id)).toBe(26)
      })
    )
  })
}
