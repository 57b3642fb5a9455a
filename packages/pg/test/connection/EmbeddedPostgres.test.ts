import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as EmbeddedPostgres from "../../src/connection/EmbeddedPostgres.js"
import * as Migrations from "../../src/migrations/Migrations.js"

/** The schema versions the database records, and whether it has the organizations table. */
const schemaOf = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [table] = yield* sql<{ present: boolean }>`
    SELECT to_regclass('schema_migrations') IS NOT NULL AS present`
  if (table?.present !== true) return { versions: [], organizations: false }
  const versions = yield* sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY migration_id`
  const [organizations] = yield* sql<{ present: boolean }>`
    SELECT to_regclass('organizations') IS NOT NULL AS present`
  return { versions: versions.map((v) => v.name), organizations: organizations?.present === true }
})

describe("EmbeddedPostgres", () => {
  it.live("opens PGlite with the documented buffer cache, not PostgreSQL's default", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [setting] = yield* sql<{ value: string }>`SELECT current_setting('shared_buffers') AS value`
      expect(setting?.value).toBe(EmbeddedPostgres.sharedBuffers)
    }).pipe(Effect.provide(EmbeddedPostgres.layer()))
  )

  it.live(
    "in memory opens empty by default, and at every schema version with migrated: each one its own database",
    () =>
      Effect.gen(function* () {
        expect(yield* schemaOf.pipe(Effect.provide(EmbeddedPostgres.layer()))).toEqual({
          versions: [],
          organizations: false
        })
        // the migrator records a version by the name after its number
        const versions = Object.keys(Migrations.migrations).map((name) => name.replace(/^\d+_/, ""))
        const migrated = { versions, organizations: true }
        // the first one makes the process's snapshot, the second opens from it; a write to one is its own
        for (const _ of [1, 2]) {
          yield* Effect.gen(function* () {
            expect(yield* schemaOf).toEqual(migrated)
            expect(yield* Migrations.run).toEqual([])
            const sql = yield* SqlClient.SqlClient
            const [before] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM organizations`
            expect(before?.n).toBe(0)
            yield* sql`CREATE TABLE written_here (x int)`
          }).pipe(Effect.provide(EmbeddedPostgres.layer({ migrated: true })))
        }
      }),
    120_000
  )
})
