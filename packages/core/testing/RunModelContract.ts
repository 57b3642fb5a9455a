import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MinorUnits } from "../src/money/Money.js"
import { newRunDefaults } from "../src/runs/Run.js"
import { RunStore } from "../src/runs/RunStore.js"
import { Transactions } from "../src/storage/Transactions.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

/**
 * The storage contract for what runs keep of their language model (tokens, charge, the analysis after them,
 * a chat's last activity); `storeContract` runs it against every adapter.
 */
export const runModelContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("runs' language model and analysis", () => {
    it.effect("start without analysis, tokens, model charge or activity, and keep what updates write", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const one = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        const many = yield* runs.insertMany(
          [Fixtures.newRun(org.id, agent.id), Fixtures.newRun(org.id, agent.id, { mode: "chat" })],
          at(1)
        )
        for (const run of [one, ...many]) {
          expect(run).toMatchObject(newRunDefaults)
          expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))).toEqual(run)
        }
        const patch = {
          summary: "Klient prosi o kontakt jutro; ZAŻÓŁĆ.",
          analysis_status: "completed" as const,
          analysis_error: null,
          model_cost: MinorUnits.make(1234),
          last_activity_at: at(5)
        }
        const updated = Option.getOrThrow(yield* runs.update(org.id, one.workflow_run_id, patch))
        expect(updated).toEqual({ ...one, ...patch })
        expect(Option.getOrThrow(yield* runs.find(org.id, one.workflow_run_id))).toEqual(updated)
        const failed = yield* runs.update(org.id, one.workflow_run_id, {
          analysis_status: "failed",
          analysis_error: "model_unavailable: the provider did not answer"
        })
        expect(Option.getOrThrow(failed)).toMatchObject({
          summary: patch.summary,
          analysis_status: "failed",
          analysis_error: "model_unavailable: the provider did not answer"
        })
        // erasing the run leaves nothing of it
        yield* runs.remove(org.id, one.workflow_run_id)
        expect(Option.isNone(yield* runs.findAnyOrganization(one.workflow_run_id))).toBe(true)
      })
    )

    it.effect("end runs with their model charge and whether they will be analysed", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const transactions = yield* Transactions
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const [talked, silent] = yield* runs.insertMany(
          [
            Fixtures.newRun(org.id, agent.id, { status: "in_progress" }),
            Fixtures.newRun(org.id, agent.id, { status: "ringing" })
          ],
          at(0)
        )
        const end = (
          run: typeof talked,
          modelCost: number,
          analysis: "pending" | "skipped",
          seconds: number
        ) => ({
          organization_id: run!.organization_id,
          workflow_run_id: run!.workflow_run_id,
          status: "completed" as const,
          duration_seconds: seconds,
          cost: MinorUnits.make(seconds * 2),
          model_cost: MinorUnits.make(modelCost),
          analysis_status: analysis,
          ended_at: at(100)
        })
        const ended = yield* transactions.run(
          runs.endMany([end(talked, 42, "pending", 30), end(silent, 0, "skipped", 0)])
        )
        const expected = [
          { workflow_run_id: talked!.workflow_run_id, model_cost: 42, analysis_status: "pending", cost: 60 },
          { workflow_run_id: silent!.workflow_run_id, model_cost: 0, analysis_status: "skipped", cost: 0 }
        ]
        const byId = (a: { workflow_run_id: number }, b: { workflow_run_id: number }) =>
          a.workflow_run_id - b.workflow_run_id
        expect([...ended].sort(byId)).toMatchObject([...expected].sort(byId))
        for (const row of expected) {
          expect(Option.getOrThrow(yield* runs.find(org.id, row.workflow_run_id))).toMatchObject(row)
        }
      })
    )

    it.effect("add every request's tokens, also when many are added at once; none to another's run", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id, { mode: "chat" }), at(0))
        const added = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) =>
            runs.addModelUsage(org.id, run.workflow_run_id, { prompt_tokens: i + 1, completion_tokens: 2 })
          ),
          { concurrency: "unbounded" }
        )
        expect(added.every(Option.isSome)).toBe(true)
        expect(
          Option.isNone(
            yield* runs.addModelUsage(other.id, run.workflow_run_id, {
              prompt_tokens: 5,
              completion_tokens: 5
            })
          )
        ).toBe(true)
        expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))).toMatchObject({
          model_prompt_tokens: 210,
          model_completion_tokens: 40
        })
        // beyond what a 32-bit counter holds
        const large = yield* runs.addModelUsage(org.id, run.workflow_run_id, {
          prompt_tokens: 3_000_000_000,
          completion_tokens: 0
        })
        expect(Option.getOrThrow(large).model_prompt_tokens).toBe(3_000_000_210)
        // a chat's kept reply: its tokens and its last activity in one write; nothing else changes
        const before = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
        const kept = Option.getOrThrow(
          yield* runs.addModelUsage(
            org.id,
            run.workflow_run_id,
            { prompt_tokens: 1, completion_tokens: 0 },
            at(42)
          )
        )
        expect(kept).toEqual({ ...before, model_prompt_tokens: 3_000_000_211, last_activity_at: at(42) })
        expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))).toEqual(kept)
      })
    )

    it.effect(
      "find chats in progress idle since before an instant, longest idle first, at most a limit",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const org = yield* Fixtures.organization()
          const other = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const { agent: otherAgent } = yield* Fixtures.agent(other.id)
          // long before any other test's activity, so a shared database's chats do not come first
          const past = (seconds: number) => new Date(Date.UTC(1985, 0, 1) + seconds * 1000)
          const chat = (
            organizationId: typeof org.id,
            agentId: typeof agent.id,
            lastActivity: Date | null,
            fields: Parameters<typeof Fixtures.newRun>[2] = {}
          ) =>
            Effect.gen(function* () {
              const run = yield* runs.insert(
                Fixtures.newRun(organizationId, agentId, { mode: "chat", status: "in_progress", ...fields }),
                at(0)
              )
              return lastActivity === null
                ? run
                : Option.getOrThrow(
                    yield* runs.update(organizationId, run.workflow_run_id, {
                      last_activity_at: lastActivity
                    })
                  )
            })
          const recent = yield* chat(org.id, agent.id, past(50))
          const oldest = yield* chat(org.id, agent.id, past(10))
          const foreign = yield* chat(other.id, otherAgent.id, past(20))
          const edge = yield* chat(org.id, agent.id, past(40))
          const ended = yield* chat(org.id, agent.id, past(0), { status: "completed" })
          const phone = yield* chat(org.id, agent.id, past(0), { mode: "phone" })
          const silent = yield* chat(org.id, agent.id, null)
          // a chat whose only message failed: not started, but active (its tokens counted)
          const unstarted = yield* chat(org.id, agent.id, past(15), { status: "initialized" })
          const untouched = yield* chat(org.id, agent.id, null, { status: "initialized" })
          const mine = new Set(
            [recent, oldest, foreign, edge, ended, phone, silent, unstarted, untouched].map(
              (run) => run.workflow_run_id
            )
          )
          const idle = (before: Date, limit: number) =>
            Effect.map(runs.idleChats(before, limit), (found) =>
              found.filter((run) => mine.has(run.workflow_run_id)).map((run) => run.workflow_run_id)
            )
          // idle before past(40): the one active at past(40) is not
          expect(yield* idle(past(40), 1000)).toEqual(
            [oldest, unstarted, foreign].map((run) => run.workflow_run_id)
          )
          expect(yield* idle(past(41), 1000)).toEqual(
            [oldest, unstarted, foreign, edge].map((run) => run.workflow_run_id)
          )
          expect(yield* idle(past(41), 2)).toEqual([oldest, unstarted].map((run) => run.workflow_run_id))
          const found = yield* runs.idleChats(past(41), 1000)
          expect(found.find((run) => run.workflow_run_id === oldest.workflow_run_id)).toEqual(oldest)
          // end them, so a persistent database does not keep them in progress for the next run
          for (const run of [recent, oldest, foreign, edge, phone, silent, unstarted, untouched]) {
            yield* runs.update(run.organization_id, run.workflow_run_id, {
              status: "completed",
              ended_at: at(1)
            })
          }
          expect(yield* idle(past(100), 1000)).toEqual([])
        })
    )

    it.effect("hold a chat's turn for one holder at a time until it is given back or runs out", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id, { mode: "chat" }), at(0))
        const id = run.workflow_run_id
        expect(yield* runs.takeTurn(org.id, id, "a", at(60), at(0))).toEqual(Option.some(run))
        // held by a until at(60): b waits, a may take it again (it is its own)
        expect(Option.isNone(yield* runs.takeTurn(org.id, id, "b", at(60), at(10)))).toBe(true)
        expect(yield* runs.takeTurn(org.id, id, "a", at(70), at(10))).toEqual(Option.some(run))
        // another organization's key names no run; giving back someone else's turn does nothing
        expect(Option.isNone(yield* runs.takeTurn(other.id, id, "c", at(99), at(80)))).toBe(true)
        yield* runs.releaseTurn(org.id, id, "b")
        expect(Option.isNone(yield* runs.takeTurn(org.id, id, "b", at(80), at(20)))).toBe(true)
        // once a's turn ran out, b takes it over; a's late release leaves b's turn alone
        expect(yield* runs.takeTurn(org.id, id, "b", at(130), at(70))).toEqual(Option.some(run))
        yield* runs.releaseTurn(org.id, id, "a")
        expect(Option.isNone(yield* runs.takeTurn(org.id, id, "c", at(140), at(80)))).toBe(true)
        yield* runs.releaseTurn(org.id, id, "b")
        expect(yield* runs.takeTurn(org.id, id, "c", at(140), at(80))).toEqual(Option.some(run))
        // the turn is no field of the run: taking it answers the run as a read does
        expect(Option.getOrThrow(yield* runs.find(org.id, id))).toEqual(run)
        expect(
          Option.isNone(yield* runs.takeTurn(org.id, 999_999_999_999 as typeof id, "d", at(1), at(0)))
        ).toBe(true)
      })
    )
  })
}
