import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { Effect, Schema } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import { layerFreshDatabase, serverReachable, warnUnreachable } from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the migration tests")

const Applied = Schema.Struct({ migration_id: Schema.Number, name: Schema.String })
const Total = Schema.Struct({ total: Schema.Number })

describe.skipIf(!reachable)("migrations (PostgreSQL)", () => {
  it.live("apply every version once when several servers start at the same time", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runs = yield* Effect.all(
        Array.from({ length: 4 }, () => Migrations.run),
        { concurrency: "unbounded" }
      )
      // one run applied both versions, the others found nothing to do
      expect(runs.map((applied) => applied.length).sort()).toEqual([
        0,
        0,
        0,
        Object.keys(Migrations.migrations).length
      ])
      const applied = Schema.decodeUnknownSync(Schema.Array(Applied))(
        yield* sql`SELECT migration_id, name FROM schema_migrations ORDER BY migration_id`
      )
      expect(applied).toEqual([
        { migration_id: 1, name: "initial" },
        { migration_id: 2, name: "run_counts" }
      ])
      expect(yield* Migrations.run).toEqual([])
    }).pipe(Effect.provide(layerFreshDatabase))
  )

  it.live("version 2 counts the runs that version 1 already held", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // a database that stopped at version 1
      yield* Migrator.make({})({
        loader: Migrator.fromRecord({ "0001_initial": Migrations.migrations["0001_initial"]! }),
        table: Migrations.migrationsTable
      })
      const [org] = yield* sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES ('Before version 2', 10, 0, now()) RETURNING id`
      yield* sql`
        INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context, currency,
          logs, sms, integration_deliveries, files, created_at)
        SELECT 7, ${org!.id}, 'chat', 'initialized', '{}', '{}', 'PLN', '[]', '[]', '[]', '{}', now()
        FROM generate_series(1, 3)`
      yield* Migrations.run
      const [counted] = Schema.decodeUnknownSync(Schema.Array(Total))(
        yield* sql`SELECT total FROM run_counts WHERE organization_id = ${org!.id} AND workflow_id = 7`
      )
      expect(counted).toEqual({ total: 3 })
    }).pipe(Effect.provide(layerFreshDatabase))
  )
})
