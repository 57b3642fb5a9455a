import { describe, expect, it } from "@effect/vitest"
import { Cause, Context, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { CallEvents, eventsAtOnce } from "../../src/calls/CallEvents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import { RuntimeCalls } from "../../src/calls/RuntimeCalls.js"
import { InMemory, PriceListConfig, SecureRandom, Services } from "../../src/index.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import * as MemoryTelephony from "../../src/memory/MemoryTelephony.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { Run } from "../../src/runs/Run.js"
import { RunId } from "../../src/runs/RunId.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { Transactions } from "../../src/storage/Transactions.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

/** How many times calls' ends read their runs (one read a batch), counted by a wrapped run store. */
let runReads = 0
/** The organizations of each batch's runs, in the order the batches read them. */
let batchOrganizations: Array<ReadonlySet<number>> = []
/** Runs whose ledger line cannot be written: a batch holding one fails as a whole. */
const poisonedRuns = new Set<number>()

/**
 * The engine in memory with a run store that counts `findManyForUpdate` and a ledger that dies on a
 * poisoned run's line.
 */
const countingEngine = Services.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      InMemory.layerStores.pipe(
        Layer.map((stores) => {
          const runs = Context.get(stores, RunStore)
          return Context.add(stores, RunStore, {
            ...runs,
            findManyForUpdate: (keys) =>
              Effect.suspend(() => {
                runReads++
                batchOrganizations.push(new Set(keys.map((k) => k.organization_id)))
                return runs.findManyForUpdate(keys)
              })
          })
        }),
        Layer.map((stores) => {
          const ledger = Context.get(stores, UsageStore)
          return Context.add(stores, UsageStore, {
            ...ledger,
            recordMany: (lines) =>
              lines.some((line) => line.run_id !== null && poisonedRuns.has(line.run_id))
                ? Effect.dieMessage("the ledger refused a line")
                : ledger.recordMany(lines)
          })
        })
      ),
      MemoryBlobStore.layer,
      MemoryTelephony.layer,
      SecureRandom.layerWebCrypto,
      PriceListConfig.layerDefault
    )
  )
)

/** `n` queued calls of a new organization. */
const queuedCalls = (n: number) =>
  Effect.gen(function* () {
    const { organization, agent } = yield* organizationWithAgent({ outbound_channels: n })
    const placement = yield* CallPlacement
    const runs = yield* Effect.forEach(Array.from({ length: n }), (_, i) =>
      placement.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: `+4850010${String(i).padStart(4, "0")}`,
        initial_context: {}
      })
    )
    return { organization, runs }
  })

const lines = (organizationId: OrganizationId) =>
  Effect.flatMap(UsageStore, (ledger) => ledger.totals(organizationId, {}))

/** Every turn taken until `release` runs: the ends reported meanwhile wait together. */
const holdTurns = Effect.gen(function* () {
  const events = yield* CallEvents
  const gate = yield* Deferred.make<void>()
  const holders = yield* Effect.forEach(Array.from({ length: eventsAtOnce }), () =>
    Effect.fork(events.inTurn(Deferred.await(gate)))
  )
  yield* Effect.yieldNow()
  runReads = 0
  batchOrganizations = []
  return {
    /** Lets the submitted ends queue up, then gives the turns back. */
    release: Effect.gen(function* () {
      for (let i = 0; i < 100; i++) yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(Fiber.all(holders))
    })
  }
})

/** A call's end reported through `CallEvents`, its exit answered. */
const end = (organizationId: OrganizationId, runId: RunId, seconds: number) =>
  Effect.flatMap(CallEvents, (events) =>
    Effect.exit(
      events.report(organizationId, runId, { type: "ended", status: "completed", duration_seconds: seconds })
    )
  )

describe("Calls' ends reported together", () => {
  it.effect(
    "are written together while every turn is taken: each end its own outcome, refusals alone, every write kept",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const a = yield* queuedCalls(10)
        const b = yield* queuedCalls(2)
        const turns = yield* holdTurns
        // the first eight ends are each taken by a worker waiting for its turn; the others queue, and
        // each worker takes its organization's along: the last run's two ends land in one batch
        const reports = yield* Effect.fork(
          Effect.all(
            [
              ...a.runs.map((run, i) => end(a.organization.id, run.workflow_run_id, 60 * (i + 1))),
              // the last run's end reported twice, another organization's run, a run that does not exist
              end(a.organization.id, a.runs[9]!.workflow_run_id, 5),
              end(a.organization.id, b.runs[0]!.workflow_run_id, 5),
              end(a.organization.id, RunId.make(987_654_321), 5),
              ...b.runs.map((run) => end(b.organization.id, run.workflow_run_id, 30))
            ],
            { concurrency: "unbounded" }
          )
        )
        yield* turns.release
        const exits = yield* Fiber.join(reports)

        // every end of a's ten runs applied with its own duration and cost; the second end of the last
        // run, in the same batch, found it ended
        for (const [i, exit] of exits.slice(0, 10).entries()) {
          expect(exit).toMatchObject({
            _tag: "Success",
            value: { _tag: "Applied", run: { status: "completed", duration_seconds: 60 * (i + 1) } }
          })
        }
        expect(exits[10]).toMatchObject({
          _tag: "Failure",
          cause: { error: { _tag: "CallAlreadyEnded", status: "completed" } }
        })
        // another organization's run and an unknown one are not found; b's own ends are applied
        expect(exits[11]).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "RunNotFound" } } })
        expect(exits[12]).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "RunNotFound" } } })
        for (const exit of exits.slice(13)) expect(Exit.isSuccess(exit)).toBe(true)

        // every end written whole: runs ended, channels free, one ledger line a call
        const runs = yield* RunStore
        for (const run of [...a.runs, ...b.runs]) {
          const stored = Option.getOrThrow(yield* runs.find(run.organization_id, run.workflow_run_id))
          expect(stored).toMatchObject({ status: "completed", channel_reservation_id: null })
          expect(stored.ended_at).not.toBeNull()
        }
        const channels = yield* ChannelStore
        expect(yield* channels.held(a.organization.id, new Date(warsawNoon))).toEqual([])
        expect(yield* channels.held(b.organization.id, new Date(warsawNoon))).toEqual([])
        expect((yield* lines(a.organization.id)).calls).toBe(10)
        expect((yield* lines(b.organization.id)).calls).toBe(2)
        // fifteen ends, at most one read a worker and one for b: they were written together, a batch
        // never holding two organizations' ends
        expect(runReads).toBeGreaterThan(0)
        expect(runReads).toBeLessThanOrEqual(eventsAtOnce + 1)
        expect(batchOrganizations.every((organizations) => organizations.size === 1)).toBe(true)
      }).pipe(Effect.provide(countingEngine))
  )

  it.effect("an end reported alone is written at once, on its own", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const events = yield* CallEvents
      const { organization, runs } = yield* queuedCalls(1)
      runReads = 0
      const outcome = yield* events.report(organization.id, runs[0]!.workflow_run_id, {
        type: "ended",
        status: "no_answer",
        duration_seconds: 0
      })
      expect(outcome).toMatchObject({ _tag: "Applied", run: { status: "no_answer", cost: 0 } })
      expect(runReads).toBe(1)
      expect((yield* lines(organization.id)).calls).toBe(1)
    }).pipe(Effect.provide(countingEngine))
  )

  it.effect(
    "a batch that fails as a whole loses no other end: the one that breaks it fails alone, not written",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, runs } = yield* queuedCalls(12)
        // past the first eight: in a batch with others
        const poisoned = runs[10]!
        poisonedRuns.add(poisoned.workflow_run_id)
        const turns = yield* holdTurns
        const reports = yield* Effect.fork(
          Effect.forEach(runs, (run) => end(organization.id, run.workflow_run_id, 60), {
            concurrency: "unbounded"
          })
        )
        yield* turns.release
        const exits = yield* Fiber.join(reports)
        poisonedRuns.clear()

        for (const [i, exit] of exits.entries()) {
          if (i === 10) expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
          else expect(exit).toMatchObject({ _tag: "Success", value: { _tag: "Applied" } })
        }
        // eleven ends written whole, one line each; the poisoned one rolled back whole, its channel held
        const store = yield* RunStore
        const stored = Option.getOrThrow(yield* store.find(organization.id, poisoned.workflow_run_id))
        expect(stored).toMatchObject({ status: "queued", ended_at: null })
        expect((yield* lines(organization.id)).calls).toBe(11)
        const held = yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))
        expect(held).toHaveLength(1)
        // the failed batch was split and written again
        expect(runReads).toBeGreaterThan(2)
      }).pipe(Effect.provide(countingEngine))
  )

  it.effect("an end reported inside the caller's transaction is written in it (no batch, no wait)", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const events = yield* CallEvents
      const transactions = yield* Transactions
      const { organization, runs } = yield* queuedCalls(2)
      const [undone, kept] = runs as [Run, Run]
      runReads = 0
      const ended = { type: "ended", status: "completed", duration_seconds: 30 } as const
      // the caller's transaction fails after the end: the end is undone with it
      const failed = yield* Effect.exit(
        transactions.run(
          Effect.zipRight(events.report(organization.id, undone.workflow_run_id, ended), Effect.fail("undo"))
        )
      )
      expect(failed).toEqual(Exit.fail("undo"))
      const outcome = yield* transactions.run(events.report(organization.id, kept.workflow_run_id, ended))
      expect(outcome).toMatchObject({ _tag: "Applied", run: { status: "completed" } })
      const store = yield* RunStore
      expect(Option.getOrThrow(yield* store.find(organization.id, undone.workflow_run_id)).status).toBe(
        "queued"
      )
      expect(Option.getOrThrow(yield* store.find(organization.id, kept.workflow_run_id)).status).toBe(
        "completed"
      )
      expect((yield* lines(organization.id)).calls).toBe(1)
      // neither went through the batches (whose transaction would wait for the caller's)
      expect(runReads).toBe(0)
    }).pipe(Effect.provide(countingEngine))
  )

  it.effect("a runtime's end reported alone is written with the ends reported at the same time", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const calls = yield* RuntimeCalls
      const { organization, runs } = yield* queuedCalls(12)
      const turns = yield* holdTurns
      const reports = yield* Effect.fork(
        Effect.forEach(
          runs,
          (run) =>
            calls.report(run.workflow_run_id, [{ type: "ended", status: "busy", duration_seconds: 0 }]),
          { concurrency: "unbounded" }
        )
      )
      yield* turns.release
      const outcomes = yield* Fiber.join(reports)
      expect(outcomes.flat().map((o) => [o._tag, o.run.status])).toEqual(runs.map(() => ["Applied", "busy"]))
      expect((yield* lines(organization.id)).calls).toBe(12)
      // twelve ends, at most one read a worker
      expect(runReads).toBeGreaterThan(0)
      expect(runReads).toBeLessThanOrEqual(eventsAtOnce)
    }).pipe(Effect.provide(countingEngine))
  )
})
