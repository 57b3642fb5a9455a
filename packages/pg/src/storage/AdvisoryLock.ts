import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Runs `effect` in one transaction that first takes the database-wide advisory lock `key`: of several
 * servers doing the same start-up work at once (applying migrations, creating the first organization),
 * one goes first and the others then see what it did. Store calls inside run in the same transaction.
 */
export const exclusively =
  (key: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | SqlClient.SqlClient> =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql
        .withTransaction(Effect.zipRight(Effect.orDie(sql`SELECT pg_advisory_xact_lock(${key})`), effect))
        .pipe(Effect.catchIf(isSqlError, (error) => Effect.die(error)))
    ) as Effect.Effect<A, E, R | SqlClient.SqlClient>

const isSqlError = (error: unknown): error is { readonly _tag: "SqlError" } =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "SqlError"

/** The lock servers take to apply migrations. */
export const migrationsKey = 73_041_962

/** The lock servers take to create their first organization or the bootstrap key's. */
export const bootstrapKey = 73_041_963
