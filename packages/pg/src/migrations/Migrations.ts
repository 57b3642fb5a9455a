import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { Effect, Layer } from "effect"
import * as AdvisoryLock from "../storage/AdvisoryLock.js"
import initial from "./0001_initial.js"
import runCounts from "./0002_run_counts.js"
import boundedWork from "./0003_bounded_work.js"
import tenancy from "./0004_tenancy.js"
import tools from "./0005_tools.js"
import campaigns from "./0006_campaigns.js"
import lookupNotifications from "./0007_lookup_notifications.js"
import campaignTallies from "./0008_campaign_tallies.js"
import fragmentMarks from "./0009_fragment_marks.js"
import analysis from "./0010_analysis.js"
import consoleAdditions from "./0011_console.js"
import promptCharges from "./0012_prompt_charges.js"
import mediaSockets from "./0013_media_sockets.js"

/**
 * The schema's versions, in order. A migration that has run is never edited: a change to the schema is a
 * new entry here.
 */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_initial": initial,
  "0002_run_counts": runCounts,
  "0003_bounded_work": boundedWork,
  "0004_tenancy": tenancy,
  "0005_tools": tools,
  "0006_campaigns": campaigns,
  "0007_lookup_notifications": lookupNotifications,
  "0008_campaign_tallies": campaignTallies,
  "0009_fragment_marks": fragmentMarks,
  "0010_analysis": analysis,
  "0011_console": consoleAdditions,
  "0012_prompt_charges": promptCharges,
  "0013_media_sockets": mediaSockets
}

/** The table that records which versions ran. */
export const migrationsTable = "schema_migrations"

const migrate = Migrator.make({})({
  loader: Migrator.fromRecord(migrations),
  table: migrationsTable
})

/** The newest version of the list (the migrator runs every version above the newest one recorded). */
export const newestVersion = Math.max(...Object.keys(migrations).map((name) => Number(name.split("_")[0])))

/**
 * Whether the database already records the newest version, read without a lock or a transaction: a
 * version applied by another server is recorded in the same transaction that applies it, so it is seen
 * here only once it is complete. Two statements (one on a new database), where taking the lock and
 * asking the migrator took about ten on every start.
 */
const upToDate: Effect.Effect<boolean, unknown, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [table] = yield* sql<{
    present: boolean
  }>`SELECT to_regclass(${migrationsTable}) IS NOT NULL AS present`
  if (table?.present !== true) return false
  const [recorded] = yield* sql<{ latest: number | null }>`
    SELECT max(migration_id) AS latest FROM ${sql(migrationsTable)}`
  return (recorded?.latest ?? 0) >= newestVersion
})

/**
 * Applies every pending version, as one transaction under a database-wide lock (exactly one of several
 * servers starting at once applies each version; the others find it applied). The migrator probes for its table with a query that fails (and so would
 * abort the transaction) when the table is missing; the table is therefore created here first, in the
 * migrator's own shape, once the lock is held. A database that already records the newest version
 * (every start but the first after an upgrade) is left alone: nothing is locked, nothing applied.
 */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  unknown,
  SqlClient.SqlClient
> = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.flatMap(upToDate, (current) =>
    current
      ? Effect.succeed([])
      : AdvisoryLock.exclusively(AdvisoryLock.migrationsKey)(
          Effect.zipRight(
            sql`CREATE TABLE IF NOT EXISTS ${sql(migrationsTable)} (
              migration_id integer PRIMARY KEY,
              created_at timestamp with time zone NOT NULL DEFAULT now(),
              name text NOT NULL
            )`,
            migrate
          )
        )
  )
)

/** Runs the migrations when the layer is built; dies when they fail (a server must not start on a wrong schema). */
export const layer: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effectDiscard(Effect.orDie(run))
