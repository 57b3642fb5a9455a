import { SqlClient } from "@effect/sql"
import { Deferred, Effect, type Fiber, Schedule } from "effect"

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

/**
 * Runs `hold` (a locking read) in a transaction of its own, forked, which stays open until `release` is
 * completed (30 seconds at most); answers that transaction's fiber once `hold` has its locks.
 */
export const holdUntil = <R>(
  hold: Effect.Effect<unknown, unknown, R>,
  release: Deferred.Deferred<void>
): Effect.Effect<Fiber.RuntimeFiber<unknown, unknown>, never, R | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const held = yield* Deferred.make<void>()
    const fiber = yield* sql
      .withTransaction(
        Effect.zipRight(hold, Deferred.succeed(held, undefined)).pipe(
          Effect.zipRight(Deferred.await(release))
        )
      )
      .pipe(Effect.timeout("30 seconds"), Effect.fork)
    yield* Deferred.await(held)
    return fiber
  })
