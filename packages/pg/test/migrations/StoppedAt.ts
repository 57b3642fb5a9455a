import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { Effect } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"

/**
 * The migrations below `version` only, as a database a server of that time left it (its versions
 * recorded in the migrations table), for tests of what the later versions find.
 */
export const migrateBelow = (
  version: number
): Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, unknown, SqlClient.SqlClient> =>
  Migrator.make({})({
    loader: Migrator.fromRecord(
      Object.fromEntries(
        Object.entries(Migrations.migrations).filter(([name]) => Number(name.split("_")[0]) < version)
      )
    ),
    table: Migrations.migrationsTable
  })

/** The versions the database records, in order. */
export const recordedVersions = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{
      migration_id: number
    }>`SELECT migration_id FROM ${sql(Migrations.migrationsTable)} ORDER BY migration_id`,
    (rows) => rows.map((row) => Number(row.migration_id))
  )
)
