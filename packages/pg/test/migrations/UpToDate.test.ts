import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Fiber, Option } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as AdvisoryLock from "../../src/storage/AdvisoryLock.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"
import { migrateBelow, recordedVersions } from "./StoppedAt.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the up-to-date migration tests")

/** Whether a session waits for an advisory lock (the migrations lock, held elsewhere). */
const waitingForLock = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
    ([row]) => row!.n > 0
  )
)

/** Another server, mid-migration: the migrations lock held in an open transaction on another connection. */
const holdMigrationsLock = Effect.gen(function* () {
  const held = yield* Deferred.make<void>()
  const release = yield* Deferred.make<void>()
  const holder = yield* Effect.fork(
    AdvisoryLock.exclusively(AdvisoryLock.migrationsKey)(
      Effect.zipRight(Deferred.succeed(held, undefined), Deferred.await(release))
    )
  )
  yield* Deferred.await(held)
  return Effect.zipRight(Deferred.succeed(release, undefined), Fiber.join(holder))
})

describe("migrations on a database that records the newest version", () => {
  it("the newest version is the list's highest", () => {
    expect(Migrations.newestVersion).toBe(Object.keys(Migrations.migrations).length)
  })

  it.live("apply nothing and leave the recorded versions as they were (embedded database)", () =>
    Effect.gen(function* () {
      expect((yield* Migrations.run).length).toBe(Object.keys(Migrations.migrations).length)
      const recorded = yield* recordedVersions
      expect(yield* Migrations.run).toEqual([])
      expect(yield* recordedVersions).toEqual(recorded)
    }).pipe(Effect.provide(layerEmbedded))
  )

  it.live.skipIf(!reachable)(
    "take no lock: they finish while another server holds the migrations lock (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        yield* Migrations.run
        const release = yield* holdMigrationsLock
        const applied = yield* Migrations.run.pipe(Effect.timeout("10 seconds"))
        yield* release
        expect(applied).toEqual([])
      }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live.skipIf(!reachable)(
    "wait for the lock on a database that records an older version, then apply the rest (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        yield* migrateBelow(Migrations.newestVersion)
        const before = yield* recordedVersions
        const release = yield* holdMigrationsLock
        const running = yield* Effect.fork(Migrations.run)
        // it reaches the lock and waits there (bounded: 200 polls of 50 ms)
        let waiting = false
        for (let i = 0; i < 200 && !waiting; i++) {
          waiting = yield* waitingForLock
          if (!waiting) yield* Effect.sleep("50 millis")
        }
        expect(waiting).toBe(true)
        expect(yield* Fiber.poll(running)).toEqual(Option.none())
        expect(yield* recordedVersions).toEqual(before)
        yield* release
        const applied = yield* Fiber.join(running).pipe(Effect.timeout("10 seconds"))
        expect(applied.map(([id]) => id)).toEqual([Migrations.newestVersion])
        expect(yield* recordedVersions).toEqual([...before, Migrations.newestVersion])
      }).pipe(Effect.provide(layerFreshDatabase))
  )
})
