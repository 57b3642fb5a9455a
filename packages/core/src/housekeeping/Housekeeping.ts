import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { CallReclaim } from "../calls/CallReclaim.js"
import { ChatEnds } from "../chat/ChatEnds.js"
import { RetentionSweep } from "../files/RetentionSweep.js"
import { IdempotencyStore } from "../idempotency/IdempotencyStore.js"
import { KnowledgeBase } from "../knowledge-base/KnowledgeBase.js"
import { backgroundSpan } from "../observability/BackgroundSpans.js"

/** How often the bundled server runs the housekeeping passes. */
export const defaultIntervalSeconds = 60

/** Expired idempotency records deleted per statement. */
export const idempotencyPurgeBatch = 1000

/**
 * Statements of `idempotencyPurgeBatch` one pass runs at most: 10,000 records a pass, 14.4 million a day
 * at the default interval, while no pass holds the database for long.
 */
export const idempotencyPurgeBatchesPerPass = 10

/** Deletes expired idempotency records, batch after batch while batches come back full, bounded per pass. */
export const purgeIdempotencyRecords = Effect.gen(function* () {
  const store = yield* IdempotencyStore
  const now = new Date(yield* Clock.currentTimeMillis)
  let purged = 0
  for (let batch = 0; batch < idempotencyPurgeBatchesPerPass; batch++) {
    const deleted = yield* store.purgeExpired(now, idempotencyPurgeBatch)
    purged += deleted
    if (deleted < idempotencyPurgeBatch) break
  }
  return purged
})

/**
 * One pass: overdue calls are reclaimed (freeing their channels), chats idle for `CHAT_IDLE_SECONDS` end,
 * expired files are removed, then expired idempotency records; the knowledge base's processors are woken
 * for documents left pending.
 * One trace per pass (`Housekeeping.pass`, every `intervalSeconds`): its statements beneath it rather
 * than a root trace each.
 */
export const pass = Effect.gen(function* () {
  const reclaimed = yield* (yield* CallReclaim).reclaim
  const idleChatsEnded = (yield* (yield* ChatEnds).endIdle).length
  const swept = yield* (yield* RetentionSweep).sweep
  const idempotencyPurged = yield* purgeIdempotencyRecords
  yield* (yield* KnowledgeBase).processPending
  return { reclaimed, idleChatsEnded, swept, idempotencyPurged }
}).pipe(backgroundSpan("Housekeeping.pass"))

/**
 * Runs `pass` now and then every `intervalSeconds` (by the Clock, so a TestClock drives it) for as long
 * as the layer lives. A failed pass is logged and the next one runs as planned.
 */
export const layer = (
  intervalSeconds: number = defaultIntervalSeconds
): Layer.Layer<never, never, CallReclaim | ChatEnds | RetentionSweep | IdempotencyStore | KnowledgeBase> =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      pass.pipe(
        Effect.catchAllCause((cause) => Effect.logError("Housekeeping pass failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.seconds(intervalSeconds)))
      )
    )
  )
