import type { Stores } from "../src/storage/Stores.js"
import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { CallFragmentStore } from "../src/calls/CallFragmentStore.js"
import { ChannelStore } from "../src/calls/ChannelStore.js"
import { RunStore } from "../src/runs/RunStore.js"
import * as Fixtures from "./Fixtures.js"
import { at } from "./ContractFixtures.js"

/** The stores, an organization's run (phone, queued) of one of its agents, and another organization. */
const aRunAndAnotherOrganization = Effect.gen(function* () {
  const fragments = yield* CallFragmentStore
  const runs = yield* RunStore
  const org = yield* Fixtures.organization()
  const other = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(org.id)
  const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
  return { fragments, runs, org, other, agent, run }
})

/** The storage contract for live calls' outbound channels and transcript fragments; `storeContract` runs it against every adapter. */
export const callStoreContract = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("outbound channels", () => {
    it.effect("grants exactly as many channels as the organization has, however many ask at once", () =>
      Effect.gen(function* () {
        const channels = yield* ChannelStore
        const org = yield* Fixtures.organization()
        // 300 at once: thirty times the channels and the PostgreSQL pool's ten connections (1,000 queued
        // transactions could outwait the pool's 10 s acquire deadline on a loaded two-core machine)
        const decisions = yield* Effect.all(
          Array.from({ length: 300 }, (_, i) =>
            channels.reserve(
              {
                id: `${org.id}-${i}`,
                organization_id: org.id,
                reserved_at: Fixtures.epoch,
                expires_at: at(600),
                expected_release_at: null
              },
              10,
              Fixtures.epoch
            )
          ),
          { concurrency: "unbounded" }
        )
        expect(decisions.filter((d) => d._tag === "Granted")).toHaveLength(10)
        expect((yield* channels.held(org.id, Fixtures.epoch)).length).toBe(10)
        const holder = (yield* channels.held(org.id, Fixtures.epoch))[0]!
        expect(yield* channels.release(org.id, holder.id)).toBe(true)
        expect(yield* channels.release(org.id, holder.id)).toBe(false)
        const again = yield* channels.reserve({ ...holder, id: `${org.id}-again` }, 10, Fixtures.epoch)
        expect(again._tag).toBe("Granted")
        // after their reclaim time every channel is free again
        const later = yield* channels.reserve(
          { ...holder, id: `${org.id}-later`, expires_at: at(1300) },
          10,
          at(700)
        )
        expect(later._tag).toBe("Granted")
        expect((yield* channels.held(org.id, at(700))).length).toBe(1)
      })
    )

    it.effect(
      "grants batches exactly too: the first ones of each, never above the organization's channels",
      () =>
        Effect.gen(function* () {
          const channels = yield* ChannelStore
          const org = yield* Fixtures.organization()
          const reservation = (id: string, expiresAt = at(600)) => ({
            id: `${org.id}-${id}`,
            organization_id: org.id,
            reserved_at: Fixtures.epoch,
            expires_at: expiresAt,
            expected_release_at: null
          })
          const batch = (k: number) =>
            Array.from({ length: 7 }, (_, i) => reservation(`b${k}-${i}`, at(600 + i)))
          const [batches, singles] = yield* Effect.all(
            [
              Effect.all(
                Array.from({ length: 20 }, (_, k) =>
                  channels.reserveBatch(org.id, batch(k), 25, Fixtures.epoch)
                ),
                { concurrency: "unbounded" }
              ),
              Effect.all(
                Array.from({ length: 20 }, (_, i) =>
                  channels.reserve(reservation(`s${i}`), 25, Fixtures.epoch)
                ),
                { concurrency: "unbounded" }
              )
            ],
            { concurrency: "unbounded" }
          )
          const granted =
            batches.reduce((sum, d) => sum + d.granted, 0) +
            singles.filter((d) => d._tag === "Granted").length
          expect(granted).toBe(25)
          const held = yield* channels.held(org.id, Fixtures.epoch)
          expect(held).toHaveLength(25)
          // each batch holds its first `granted` reservations, none after them
          batches.forEach((d, k) => {
            const mine = held.filter((r) => r.id.startsWith(`${org.id}-b${k}-`)).map((r) => r.id)
            expect(mine.sort()).toEqual(
              batch(k)
                .slice(0, d.granted)
                .map((r) => r.id)
                .sort()
            )
            expect(d.retryAfterSeconds === null).toBe(d.granted === 7)
          })
          // a full organization: nothing granted, the Retry-After a single reservation hears
          const full = yield* channels.reserveBatch(org.id, [reservation("x")], 25, Fixtures.epoch)
          const single = yield* channels.reserve(reservation("y"), 25, Fixtures.epoch)
          expect(full).toEqual({
            granted: 0,
            retryAfterSeconds: single._tag === "Busy" ? single.retryAfterSeconds : -1
          })
          expect(yield* channels.reserveBatch(org.id, [], 25, Fixtures.epoch)).toEqual({
            granted: 0,
            retryAfterSeconds: null
          })
          // after their reclaim time a whole batch fits again
          const later = yield* channels.reserveBatch(org.id, batch(99), 25, at(2000))
          expect(later).toEqual({ granted: 7, retryAfterSeconds: null })
        })
    )
  })

  describe("live call transcript fragments", () => {
    it.effect(
      "appendWhileLive appends to a run that is not final, the organization's, and to nothing else",
      () =>
        Effect.gen(function* () {
          const { fragments, runs, org, other, run } = yield* aRunAndAnotherOrganization
          const said = (text: string, seconds: number) => ({
            role: "user" as const,
            text,
            timestamp: at(seconds)
          })
          const held = yield* fragments.appendWhileLive(org.id, run.workflow_run_id, [
            said("one", 1),
            said("two", 1)
          ])
          expect(Option.map(held, (r) => r.workflow_run_id)).toEqual(Option.some(run.workflow_run_id))
          yield* fragments.appendWhileLive(org.id, run.workflow_run_id, [said("three", 2)])
          expect((yield* fragments.list(org.id, run.workflow_run_id)).map((f) => f.text)).toEqual([
            "one",
            "two",
            "three"
          ])
          expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id)).fragments_kept).toBe(true)
          // another organization's key: nothing appended anywhere
          expect(
            yield* fragments.appendWhileLive(other.id, run.workflow_run_id, [said("theirs", 3)])
          ).toEqual(Option.none())
          expect(yield* fragments.list(other.id, run.workflow_run_id)).toEqual([])
          // a final run takes no more
          yield* runs.update(org.id, run.workflow_run_id, { status: "completed" })
          expect(yield* fragments.appendWhileLive(org.id, run.workflow_run_id, [said("late", 4)])).toEqual(
            Option.none()
          )
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toHaveLength(3)
        })
    )

    it.effect(
      "appendWhileLive with model usage adds the tokens and the last activity in the same step, and answers the run as written",
      () =>
        Effect.gen(function* () {
          const { fragments, runs, org, other, run } = yield* aRunAndAnotherOrganization
          const turn = [
            { role: "user" as const, text: "hello", timestamp: at(1) },
            { role: "assistant" as const, text: "hi", timestamp: at(2) }
          ]
          const usage = { prompt_tokens: 12, completion_tokens: 5 }
          const written = Option.getOrThrow(
            yield* fragments.appendWhileLive(org.id, run.workflow_run_id, turn, {
              usage,
              lastActivityAt: at(2)
            })
          )
          expect([written.model_prompt_tokens, written.model_completion_tokens]).toEqual([12, 5])
          expect(written.last_activity_at).toEqual(at(2))
          yield* fragments.appendWhileLive(org.id, run.workflow_run_id, [{ ...turn[0]!, timestamp: at(3) }], {
            usage,
            lastActivityAt: at(3)
          })
          const stored = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
          expect([stored.model_prompt_tokens, stored.model_completion_tokens]).toEqual([24, 10])
          expect([stored.last_activity_at, stored.fragments_kept]).toEqual([at(3), true])
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toHaveLength(3)
          // another organization's key, and a final run: nothing written, tokens included
          expect(
            yield* fragments.appendWhileLive(other.id, run.workflow_run_id, turn, {
              usage,
              lastActivityAt: at(4)
            })
          ).toEqual(Option.none())
          yield* runs.update(org.id, run.workflow_run_id, { status: "completed" })
          expect(
            yield* fragments.appendWhileLive(org.id, run.workflow_run_id, turn, {
              usage,
              lastActivityAt: at(5)
            })
          ).toEqual(Option.none())
          const after = Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))
          expect([after.model_prompt_tokens, after.last_activity_at]).toEqual([24, at(3)])
          expect(yield* fragments.list(org.id, run.workflow_run_id)).toHaveLength(3)
        })
    )

    it.effect("keeps every appended fragment in order, per run and organization, until cleared", () =>
      Effect.gen(function* () {
        const { fragments, runs, org, other, agent, run } = yield* aRunAndAnotherOrganization
        const second = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual([])
        const said = [
          {
            role: "assistant" as const,
            text: "Dzień dobry, mówi Ola.",
            timestamp: new Date(at(1).getTime() + 123)
          },
          { role: "user" as const, text: "Hello 👋", timestamp: at(2) },
          // the same instant as the one before: the order of appending decides
          { role: "assistant" as const, text: "", timestamp: at(2) }
        ]
        // a new run kept none; the first append marks it (a call's end reads fragments only then)
        const kept = (organizationId: typeof org.id, runId: typeof run.workflow_run_id) =>
          Effect.map(runs.find(organizationId, runId), (found) => Option.getOrThrow(found).fragments_kept)
        expect(yield* kept(org.id, run.workflow_run_id)).toBe(false)
        // appending none is nothing: the run is not marked
        yield* fragments.append(org.id, run.workflow_run_id, [])
        expect(yield* kept(org.id, run.workflow_run_id)).toBe(false)
        // one, then two at once: kept in their order, within an append and across appends
        yield* fragments.append(org.id, run.workflow_run_id, said.slice(0, 1))
        yield* fragments.append(org.id, run.workflow_run_id, said.slice(1))
        expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual(said)
        expect(yield* kept(org.id, run.workflow_run_id)).toBe(true)
        expect(yield* kept(org.id, second.workflow_run_id)).toBe(false)
        // another organization's append under the run's id marks nothing of this organization's
        const third = yield* runs.insert(Fixtures.newRun(org.id, agent.id), at(0))
        yield* fragments.append(other.id, third.workflow_run_id, [said[0]!])
        expect(yield* kept(org.id, third.workflow_run_id)).toBe(false)
        // ... and this organization's fragment under it now is refused: it is not kept, and marks nothing
        yield* fragments.append(org.id, third.workflow_run_id, said.slice(1))
        expect(yield* fragments.list(org.id, third.workflow_run_id)).toEqual([])
        expect(yield* kept(org.id, third.workflow_run_id)).toBe(false)
        // another run and another organization see none of them
        expect(yield* fragments.list(org.id, second.workflow_run_id)).toEqual([])
        expect(yield* fragments.list(other.id, run.workflow_run_id)).toEqual([])
        yield* fragments.clear(other.id, run.workflow_run_id)
        expect(yield* fragments.list(org.id, run.workflow_run_id)).toHaveLength(3)
        // simultaneous appends lose nothing
        yield* Effect.all(
          Array.from({ length: 50 }, (_, i) =>
            fragments.append(org.id, second.workflow_run_id, [
              { role: "user", text: `${i}`, timestamp: at(i) }
            ])
          ),
          { concurrency: "unbounded" }
        )
        const appended = yield* fragments.list(org.id, second.workflow_run_id)
        expect(appended.map((f) => Number(f.text)).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 50 }, (_, i) => i)
        )
        yield* fragments.clear(org.id, run.workflow_run_id)
        expect(yield* fragments.list(org.id, run.workflow_run_id)).toEqual([])
        expect(yield* fragments.list(org.id, second.workflow_run_id)).toHaveLength(50)
      })
    )
  })
}
