import { SqlClient } from "@effect/sql"
import { Transactions, markedInTransaction } from "@voice-agent-platform/core/storage/Transactions.js"
import { Effect, Layer } from "effect"

/**
 * Transactions as database transactions. A transaction inside one becomes a savepoint. A database error
 * at BEGIN or COMMIT is a defect: the stores' callers have no way to recover from a lost database.
 */
export const layer: Layer.Layer<Transactions, never, SqlClient.SqlClient> = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    run: (effect) =>
      sql
        .withTransaction(markedInTransaction(effect))
        .pipe(Effect.catchTag("SqlError" as never, Effect.die as never)) as typeof effect
  }))
)
