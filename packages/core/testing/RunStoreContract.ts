import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AgentStore } from "../src/agents/AgentStore.js"
import { MinorUnits } from "../src/money/Money.js"
import { RunStore } from "../src/runs/RunStore.js"
import { Transactions } from "../src/storage/Transactions.js"
import * as ToolCallLog from "../src/tools/ToolCallLog.js"
import * as Fixtures from "./Fixtures.js"
import { page, at } from "./ContractFixtures.js"

/** The storage contract for runs, as tenants list them and as housekeeping finds them; `storeContract` runs it against every adapter. */
export const runStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("runs", () => {
    it.effect("a log line is added while the run is not final, and to nothing else", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const line = (message: string, seconds: number) => ({
          timestamp: at(seconds),
          level: "info" as const,
          message
        })
        const first = yield* runs.appendLogWhileLive(org.id, run.workflow_run_id, line("Connected", 1))
        expect(Option.map(first, (r) => r.logs)).toEqual(Option.some([line("Connected", 1)]))
        const second = yield* runs.appendLogWhileLive(org.id, run.workflow_run_id, line("Turn 1 latency", 2))
        expect(Option.map(second, (r) => r.logs.map((l) => l.message))).toEqual(
          Option.some(["Connected", "Turn 1 latency"])
        )
        // another organization's key finds nothing and writes nothing; a run that does not exist neither
        expect(yield* runs.appendLogWhileLive(other.id, run.workflow_run_id, line("Theirs", 3))).toEqual(
          Option.none()
        )
        // a final run takes no more lines; `initialized` (a record-only run, a chat) is not final
        yield* runs.update(org.id, run.workflow_run_id, { status: "completed" })
        expect(yield* runs.appendLogWhileLive(org.id, run.workflow_run_id, line("Late", 4))).toEqual(
          Option.none()
        )
        const stored = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
        expect(stored.logs.map((l) => l.message)).toEqual(["Connected", "Turn 1 latency"])
        const chat = yield* runs.insert(
          Fixtures.newRun(org.id, agent.id, { mode: "chat", status: "initialized" }),
          at(0)
        )
        expect(
          Option.isSome(yield* runs.appendLogWhileLive(org.id, chat.workflow_run_id, line("Hi", 5)))
        ).toBe(true)
      })
    )

    it.effect("stores, filters, updates and erases runs within the organization", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const first = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const second = yield* runs.insert(Fixtures.newRun(org.id, agent.id, { status: "completed" }), at(10))
        expect(first.initial_context).toEqual({ phone_number: "+48500000100" })
        expect((yield* runs.list(org.id, agent.id, {}, page(1))).items.map((r) => r.workflow_run_id)).toEqual(
          [second.workflow_run_id, first.workflow_run_id]
        )
        expect((yield* runs.list(org.id, agent.id, { status: "completed" }, page(1))).total_count).toBe(1)
        expect((yield* runs.list(org.id, agent.id, { created_after: at(5) }, page(1))).total_count).toBe(1)
        expect((yield* runs.list(org.id, agent.id, { created_before: at(10) }, page(1))).total_count).toBe(1)
        expect(Option.isNone(yield* runs.find(other.id, first.workflow_run_id))).toBe(true)
        // a held read answers what a read answers, in a transaction and outside one
        const transactions = yield* Transactions
        expect(yield* transactions.run(runs.findForUpdate(org.id, first.workflow_run_id))).toEqual(
          yield* runs.find(org.id, first.workflow_run_id)
        )
        expect(Option.isNone(yield* runs.findForUpdate(other.id, first.workflow_run_id))).toBe(true)
        const updated = yield* runs.update(org.id, first.workflow_run_id, {
          status: "completed",
          gathered_context: { email: "a@b.pl" },
          duration_seconds: 42,
          cost: MinorUnits.make(84),
          ended_at: at(50)
        })
        expect(Option.getOrThrow(updated)).toMatchObject({
          status: "completed",
          duration_seconds: 42,
          cost: 84
        })
        expect(yield* runs.countByAgent(org.id, agent.id)).toBe(2)
        expect(Option.isSome(yield* runs.remove(org.id, first.workflow_run_id))).toBe(true)
        expect(Option.isNone(yield* runs.find(org.id, first.workflow_run_id))).toBe(true)
        expect(yield* runs.countByAgent(org.id, agent.id)).toBe(1)
      })
    )

    it.effect(
      "pages an agent's runs newest first, ties by the higher id, from either end, with filters",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          // 23 runs, three to an instant (ties), every third one completed
          const inserted: Array<{ id: number; at: number; completed: boolean }> = []
          for (let i = 0; i < 23; i++) {
            const completed = i % 3 === 0
            const run = yield* runs.insert(
              Fixtures.newRun(org.id, agent.id, completed ? { status: "completed" } : {}),
              at(Math.floor(i / 3))
            )
            inserted.push({ id: run.workflow_run_id, at: Math.floor(i / 3), completed })
          }
          const newestFirst = (rows: typeof inserted) =>
            [...rows].sort((a, b) => b.at - a.at || b.id - a.id).map((row) => row.id)
          const walk = (limit: number, filter: { readonly status?: "completed" }) =>
            Effect.gen(function* () {
              const ids: Array<number> = []
              for (let n = 1; ; n++) {
                const listed = yield* runs.list(org.id, agent.id, filter, page(n, limit))
                if (listed.items.length === 0) return { ids, total: listed.total_count, pages: n - 1 }
                ids.push(...listed.items.map((run) => run.workflow_run_id))
              }
            })
          for (const limit of [1, 4, 5, 7, 23, 50]) {
            const all = yield* walk(limit, {})
            expect(all.ids).toEqual(newestFirst(inserted))
            expect(all.total).toBe(23)
            expect(all.pages).toBe(Math.ceil(23 / limit))
            const completed = yield* walk(limit, { status: "completed" })
            expect(completed.ids).toEqual(newestFirst(inserted.filter((row) => row.completed)))
            expect(completed.total).toBe(8)
          }
        })
    )

    it.effect("counts an agent's runs exactly: concurrent inserts, deletions, a rolled-back insert", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const transactions = yield* Transactions
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: otherAgent } = yield* Fixtures.agent(org.id)
        const inserted = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => runs.insert(Fixtures.newRun(org.id, agent.id), at(i))),
          { concurrency: "unbounded" }
        )
        yield* runs.insert(Fixtures.newRun(org.id, otherAgent.id), at(0))
        yield* Effect.either(
          transactions.run(
            Effect.zipRight(runs.insert(Fixtures.newRun(org.id, agent.id), at(99)), Effect.fail("undone"))
          )
        )
        yield* Effect.all(
          inserted.slice(0, 5).map((run) => runs.remove(org.id, run.workflow_run_id)),
          { concurrency: "unbounded" }
        )
        expect(yield* runs.countByAgent(org.id, agent.id)).toBe(15)
        expect((yield* runs.list(org.id, agent.id, {}, page(1))).total_count).toBe(15)
        expect((yield* runs.list(org.id, agent.id, { status: "queued" }, page(1))).total_count).toBe(15)
        expect(yield* runs.countByAgent(org.id, otherAgent.id)).toBe(1)
      })
    )

    it.effect("finds a run by its global id for a voice runtime, whatever its organization", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const found = Option.getOrThrow(yield* runs.findAnyOrganization(run.workflow_run_id))
        expect(found).toEqual(run)
        expect(found.organization_id).toBe(org.id)
        yield* runs.remove(org.id, run.workflow_run_id)
        expect(Option.isNone(yield* runs.findAnyOrganization(run.workflow_run_id))).toBe(true)
      })
    )

    it.effect("gives a phone run's media socket once, and only for the call that was dialed", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const dialed = `CA${"1".repeat(32)}`
        const other = `CA${"2".repeat(32)}`
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const id = run.workflow_run_id
        // nothing dialed yet: no socket
        expect(yield* runs.claimMedia(id, dialed, at(1))).toBe(false)
        expect(yield* runs.carrierCallOf(id)).toEqual(Option.none())
        yield* runs.recordCarrierCall(id, dialed)
        // the first call kept wins: another (a later callback's) changes nothing
        yield* runs.recordCarrierCall(id, other)
        expect(yield* runs.carrierCallOf(id)).toEqual(Option.some(dialed))
        expect(yield* runs.claimMedia(id, other, at(1))).toBe(false)
        const racing = yield* Effect.all(
          [runs.claimMedia(id, dialed, at(2)), runs.claimMedia(id, dialed, at(2))],
          { concurrency: "unbounded" }
        )
        expect(racing.filter((taken) => taken)).toHaveLength(1)
        expect(yield* runs.claimMedia(id, dialed, at(3))).toBe(false)
        // an ended run and a chat take none
        const ended = yield* runs.insert(Fixtures.newRun(org.id, agent.id, { status: "completed" }), at(0))
        yield* runs.recordCarrierCall(ended.workflow_run_id, dialed)
        expect(yield* runs.claimMedia(ended.workflow_run_id, dialed, at(1))).toBe(false)
        const chat = yield* runs.insert(
          Fixtures.newRun(org.id, agent.id, { mode: "chat", status: "in_progress" }),
          at(0)
        )
        yield* runs.recordCarrierCall(chat.workflow_run_id, dialed)
        expect(yield* runs.claimMedia(chat.workflow_run_id, dialed, at(1))).toBe(false)
        // the run itself reads as before
        expect(Option.getOrThrow(yield* runs.findAnyOrganization(id))).toEqual(run)
      })
    )

    it.effect(
      "keeps the agent version a run was placed with, and tool-call lines in its logs until erased",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const agents = yield* AgentStore
          const org = yield* Fixtures.organization()
          const { agent, definition } = yield* Fixtures.agent(org.id)
          const run = yield* runs.insert(
            Fixtures.newRun(org.id, agent.id, { agent_definition_id: definition.id }),
            at(0)
          )
          // a later version of the agent is not the run's
          yield* agents.appendDefinition(
            org.id,
            agent.id,
            (current) => ({ ...current, system_prompt: "v2" }),
            at(1)
          )
          const toolCall = {
            tool_uuid: "7d3f1c1e-0000-4000-8000-000000000001",
            tool_type: "http_api",
            arguments: { order: "A-1", nested: { count: 2 } },
            arguments_truncated: false,
            outcome: "error" as const,
            error_type: "http_status",
            status_code: 500,
            duration_ms: 12,
            response: '{"error":"boom"}',
            response_truncated: false
          }
          yield* runs.update(org.id, run.workflow_run_id, {
            logs: [
              { timestamp: at(2), level: "info", message: "plain line" },
              { timestamp: at(3), level: "warning", message: "Tool failed", tool_call: toolCall }
            ]
          })
          const stored = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
          expect(stored.agent_definition_id).toBe(definition.id)
          expect(stored.logs).toEqual([
            { timestamp: at(2), level: "info", message: "plain line" },
            { timestamp: at(3), level: "warning", message: "Tool failed", tool_call: toolCall }
          ])
          const legacy = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(4))
          expect(legacy.agent_definition_id).toBeNull()
          yield* runs.remove(org.id, run.workflow_run_id)
          expect(Option.isNone(yield* runs.findAnyOrganization(run.workflow_run_id))).toBe(true)
        })
    )

    it.effect("keeps the log of a tool call whose response had an emoji straddling the 4 KiB cut", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        // `{"big":"` is 8 characters: the emoji's first half would be character 4096 of the kept text
        const toolCall = ToolCallLog.record(
          { tool_uuid: "7d3f1c1e-0000-4000-8000-000000000002", type: "http_api" },
          // `{"note":"` is 9 characters: kept, the note is cut at 4085, where the emoji's first half is
          { note: `${"y".repeat(4084)}😀 and more` },
          {
            ok: true,
            status_code: 200,
            duration_ms: 3,
            response: { big: `${"x".repeat(4087)}😀 more` },
            message: null,
            error: null
          },
          []
        )
        const logs = [
          { timestamp: at(1), level: "info" as const, message: "Tool answered", tool_call: toolCall }
        ]
        yield* runs.update(org.id, run.workflow_run_id, { logs })
        expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id)).logs).toEqual(logs)
      })
    )
  })

  describe("runs for housekeeping", () => {
    it.effect("finds ended runs with files by end and cursor, and the organizations that have them", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const fileless = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: otherAgent } = yield* Fixtures.agent(other.id)
        const { agent: filelessAgent } = yield* Fixtures.agent(fileless.id)
        const files = { recording: "r.wav", transcript: null }
        const none = { recording: null, transcript: null }
        const ended = (endedAt: Date, runFiles: typeof files | typeof none = files) =>
          runs.insert(
            Fixtures.newRun(org.id, agent.id, { status: "completed", files: runFiles, ended_at: endedAt }),
            at(0)
          )
        const a = yield* ended(at(100))
        const b = yield* ended(at(50))
        const c = yield* ended(at(100))
        yield* ended(at(10), none)
        yield* ended(at(500))
        yield* runs.insert(Fixtures.newRun(org.id, agent.id, { status: "in_progress", files }), at(0))
        yield* runs.insert(
          Fixtures.newRun(other.id, otherAgent.id, { status: "completed", files, ended_at: at(10) }),
          at(0)
        )
        yield* runs.insert(
          Fixtures.newRun(fileless.id, filelessAgent.id, { status: "completed", ended_at: at(10) }),
          at(0)
        )
        const ids = (found: ReadonlyArray<{ readonly workflow_run_id: number }>) =>
          found.map((r) => r.workflow_run_id)
        // oldest end first; equal ends by id
        const [first, second] = [a, c].sort((x, y) => x.workflow_run_id - y.workflow_run_id)
        expect(ids(yield* runs.endedWithFiles(org.id, at(100), null, 10))).toEqual(ids([b, first!, second!]))
        expect(ids(yield* runs.endedWithFiles(org.id, at(100), null, 1))).toEqual([b.workflow_run_id])
        expect(
          ids(
            yield* runs.endedWithFiles(
              org.id,
              at(100),
              { ended_at: at(100), workflow_run_id: first!.workflow_run_id },
              10
            )
          )
        ).toEqual([second!.workflow_run_id])
        expect(ids(yield* runs.endedWithFiles(org.id, at(99), null, 10))).toEqual([b.workflow_run_id])
        const organizations = yield* runs.organizationsWithFiles
        expect(organizations).toContain(org.id)
        expect(organizations).toContain(other.id)
        expect(organizations).not.toContain(fileless.id)
      })
    )

    it.effect("finds live runs of every organization created by an instant, oldest first", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: otherAgent } = yield* Fixtures.agent(other.id)
        // long before any other test's runs, so a shared database's rows do not come first
        const past = (seconds: number) => new Date(Date.UTC(1990, 0, 1) + seconds * 1000)
        const insert = (
          status: "queued" | "ringing" | "in_progress" | "completed" | "initialized",
          s: number
        ) => runs.insert(Fixtures.newRun(org.id, agent.id, { status }), past(s))
        const ringing = yield* insert("ringing", 10)
        const queued = yield* insert("queued", 0)
        yield* insert("completed", 5)
        yield* insert("initialized", 1)
        const talking = yield* runs.insert(
          Fixtures.newRun(other.id, otherAgent.id, { status: "in_progress" }),
          past(20)
        )
        const later = yield* insert("queued", 30)
        const mine = new Set([ringing, queued, talking, later].map((r) => r.workflow_run_id))
        const live = (yield* runs.liveCreatedBy(past(20), 1000)).filter((r) => mine.has(r.workflow_run_id))
        expect(live.map((r) => r.workflow_run_id)).toEqual(
          [queued, ringing, talking].map((r) => r.workflow_run_id)
        )
        expect((yield* runs.liveCreatedBy(past(20), 2)).length).toBeLessThanOrEqual(2)
        // end them, so a persistent database does not keep them live for the next run
        for (const run of [ringing, queued, talking, later]) {
          yield* runs.update(run.organization_id, run.workflow_run_id, {
            status: "failed",
            ended_at: at(0)
          })
        }
        expect(
          (yield* runs.liveCreatedBy(past(30), 1000)).filter((r) => mine.has(r.workflow_run_id))
        ).toEqual([])
      })
    )
  })
}
