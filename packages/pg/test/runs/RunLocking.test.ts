import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { RunKey } from "@voice-agent-platform/core/runs/RunStore.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import type { Run } from "@voice-agent-platform/core/runs/Run.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import { holdUntil, someoneWaitsForALock } from "../storage/LockWaits.js"
import {
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the run locking test")

const keyOf = (run: Run): RunKey => ({
  organization_id: run.organization_id,
  workflow_run_id: run.workflow_run_id
})

const storage = PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(layerFreshDatabase, layerSecretBox)))

describe.skipIf(!reachable)("a run held by findForUpdate (PostgreSQL)", () => {
  it.live("makes a second transaction wait until the first one ends", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* RunStore
      const org = yield* Fixtures.organization()
      const { agent } = yield* Fixtures.agent(org.id)
      const run = yield* runs.insert(Fixtures.newRun(org.id, agent.id), Fixtures.epoch)
      const order: Array<string> = []
      const held = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const first = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* runs.findForUpdate(org.id, run.workflow_run_id)
            order.push("first holds")
            yield* Deferred.succeed(held, undefined)
            yield* Deferred.await(release)
            order.push("first ends")
          })
        )
        .pipe(Effect.fork)
      yield* Deferred.await(held)
      const second = yield* sql
        .withTransaction(
          Effect.map(runs.findForUpdate(org.id, run.workflow_run_id), (found) => {
            order.push("second holds")
            return found
          })
        )
        .pipe(Effect.fork)
      // the first ends only once the second waits for its lock
      yield* someoneWaitsForALock.pipe(Effect.ensuring(Deferred.succeed(release, undefined)))
      yield* Fiber.join(first)
      expect(Option.isSome(yield* Fiber.join(second))).toBe(true)
      expect(order).toEqual(["first holds", "first ends", "second holds"])
    }).pipe(Effect.provide(storage))
  )

  it.live(
    "lets two transactions ending overlapping runs in opposite key order both finish, no deadlock",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const created = yield* runs.insertMany(
          Array.from({ length: 200 }, () => Fixtures.newRun(org.id, agent.id, { status: "in_progress" })),
          Fixtures.epoch
        )
        const keys: ReadonlyArray<RunKey> = created.map((run) => ({
          organization_id: run.organization_id,
          workflow_run_id: run.workflow_run_id
        }))
        // 100 runs in common, named first to last by one call's end and last to first by the other
        const forward = keys.slice(0, 150)
        const backward = keys.slice(50).reverse()
        /** A batch of calls' ends as the engine runs it: its runs held, then ended, in one transaction. */
        const endAll = (batch: ReadonlyArray<RunKey>) =>
          sql.withTransaction(
            Effect.gen(function* () {
              const held = yield* runs.findManyForUpdate(batch)
              // still holding them while the other transaction asks for its own
              yield* Effect.sleep("20 millis")
              const ended = yield* runs.endMany(
                held.map((run) => ({
                  organization_id: run.organization_id,
                  workflow_run_id: run.workflow_run_id,
                  status: "completed" as const,
                  duration_seconds: 1,
                  cost: MinorUnits.make(2),
                  model_cost: MinorUnits.make(0),
                  analysis_status: "skipped" as const,
                  ended_at: Fixtures.epoch
                }))
              )
              return ended.length
            })
          )
        // a deadlock fails one of them (PostgreSQL detects it after deadlock_timeout, 1 s by default). On a
        // table this small the plan may lock rows in the same (physical) order in both without the statement's
        // ORDER BY: the next test pins the order itself.
        for (let round = 0; round < 10; round++) {
          const ended = yield* Effect.all([endAll(forward), endAll(backward)], { concurrency: 2 }).pipe(
            Effect.timeoutFail({
              duration: "20 seconds",
              onTimeout: () => "the two ends waited on each other"
            })
          )
          expect(ended).toEqual([150, 150])
        }
      }).pipe(Effect.provide(storage))
  )

  it.live("holds a batch's runs in id order: waiting for one run, it holds those before it, none after", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* RunStore
      const org = yield* Fixtures.organization()
      const { agent } = yield* Fixtures.agent(org.id)
      // random ids: the order the rows were written in is not their ids' order
      const created = yield* runs.insertMany(
        Array.from({ length: 20 }, () => Fixtures.newRun(org.id, agent.id)),
        Fixtures.epoch
      )
      const byId = [...created].sort((a, b) => a.workflow_run_id - b.workflow_run_id)
      const middle = byId[9]!
      const release = yield* Deferred.make<void>()
      const first = yield* holdUntil(runs.findForUpdate(org.id, middle.workflow_run_id), release)
      // the batch names its runs highest id first
      const batch = yield* sql
        .withTransaction(runs.findManyForUpdate([...byId].reverse().map(keyOf)))
        .pipe(Effect.fork)
      // the runs no transaction holds while the batch waits: exactly those after the one it waits for (the
      // first transaction lets go whatever happens, so that a failure here does not leave the batch waiting)
      const free = yield* Effect.zipRight(
        someoneWaitsForALock,
        sql<{ readonly workflow_run_id: number }>`
          SELECT workflow_run_id FROM runs WHERE organization_id = ${org.id}
          ORDER BY workflow_run_id FOR UPDATE SKIP LOCKED`
      ).pipe(Effect.ensuring(Deferred.succeed(release, undefined)))
      yield* Fiber.join(first)
      const found = yield* Fiber.join(batch).pipe(Effect.timeout("10 seconds"))
      expect(free.map((row) => row.workflow_run_id)).toEqual(byId.slice(10).map((run) => run.workflow_run_id))
      expect(byIdOf(found)).toEqual(byId)
    }).pipe(Effect.provide(storage))
  )
})

const byIdOf = (rows: ReadonlyArray<Run>) => [...rows].sort((a, b) => a.workflow_run_id - b.workflow_run_id)
