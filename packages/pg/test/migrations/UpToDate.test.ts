import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Fiber } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as AdvisoryLock from "../../src/storage/AdvisoryLock.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the up-to-date migration tests")

const versions = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ migration_id: number }>`SELECT migration_id FROM schema_migrations ORDER BY migration_id`,
    (rows) => rows.map((row) => row.migration_id)
  )

describe("migrations on a database that records the newest version", () => {
  it("the newest version is the list's highest", () => {
    expect(Migrations.newestVersion).toBe(Object.keys(Migrations.migrations).length)
  })

  it.live("apply nothing and leave the recorded versions as they were (embedded database)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      expect((yield* Migrations.run).length).toBe(Object.keys(Migrations.migrations).length)
      const recorded = yield* versions(sql)
      expect(yield* Migrations.run).toEqual([])
      expect(yield* versions(sql)).toEqual(recorded)
    }).pipe(Effect.provide(layerEmbedded))
  )

  it.live.skipIf(!reachable)(
    "take no lock: they finish while another server holds the migrations lock (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        yield* Migrations.run
        const held = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        // Another server, mid-migration: the lock held in an open transaction on another connection.
        const holder = yield* Effect.fork(
          AdvisoryLock.exclusively(AdvisoryLock.migrationsKey)(
            Effect.zipRight(Deferred.succeed(held, undefined), Deferred.await(release))
          )
        )
        yield* Deferred.await(held)
        const applied = yield* Migrations.run.pipe(Effect.timeout("10 seconds"))
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(applied).toEqual([])
      }).pipe(Effect.provide(layerFreshDatabase))
  )
})
