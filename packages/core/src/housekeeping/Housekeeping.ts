import { Duration, Effect, Layer, Schedule } from "effect"
import { CallReclaim } from "../calls/CallReclaim.js"
import { RetentionSweep } from "../files/RetentionSweep.js"

/** How often the bundled server runs the housekeeping passes. */
export const defaultIntervalSeconds = 60

/** One pass: overdue calls are reclaimed (freeing their channels), then expired files are removed. */
export const pass = Effect.gen(function* () {
  const reclaimed = yield* (yield* CallReclaim).reclaim
  const swept = yield* (yield* RetentionSweep).sweep
  return { reclaimed, swept }
})

/**
 * Runs `pass` now and then every `intervalSeconds` (by the Clock, so a TestClock drives it) for as long
 * as the layer lives. A failed pass is logged and the next one runs as planned.
 */
export const layer = (
  intervalSeconds: number = defaultIntervalSeconds
): Layer.Layer<never, never, CallReclaim | RetentionSweep> =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      pass.pipe(
        Effect.catchAllCause((cause) => Effect.logError("Housekeeping pass failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.seconds(intervalSeconds)))
      )
    )
  )
