import { SqlClient } from "@effect/sql"
import { Effect, Schedule } from "effect"

/**
 * Answers once some transaction of this database waits for a lock (a row held by another), so that a test
 * looks at what a waiting statement holds only once it waits; fails after 10 seconds of no wait.
 */
export const someoneWaitsForALock = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly waiting: number }>`
    SELECT count(*)::int8 AS waiting FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.pipe(
    Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (rows) => rows[0]!.waiting > 0 }),
    Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => "no transaction ever waited for a lock" })
  )
)
