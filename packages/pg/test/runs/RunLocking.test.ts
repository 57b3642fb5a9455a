import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the run locking test")

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
      const first = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* runs.findForUpdate(org.id, run.workflow_run_id)
            order.push("first holds")
            yield* Deferred.succeed(held, undefined)
            yield* Effect.sleep("300 millis")
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
      yield* Fiber.join(first)
      expect(Option.isSome(yield* Fiber.join(second))).toBe(true)
      expect(order).toEqual(["first holds", "first ends", "second holds"])
    }).pipe(Effect.provide(storage))
  )
})
