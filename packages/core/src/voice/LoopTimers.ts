import { Duration, Effect, Fiber, type Scope } from "effect"

/**
 * Named one-shot timers for a loop that handles one event at a time: starting a timer replaces the one of
 * that name, and each firing carries a generation so that a firing already on its way when its timer was
 * stopped or replaced is recognised as stale (`take` refuses it). The sleeping fibers live in the loop's
 * scope; on Effect's clock (a TestClock in tests).
 */
export interface LoopTimers<K extends string> {
  /** (Re)starts `kind`: after `millis`, `fire(kind, generation)` runs. */
  readonly start: (kind: K, millis: number) => Effect.Effect<void, never, Scope.Scope>
  readonly stop: (kind: K) => Effect.Effect<void>
  readonly isRunning: (kind: K) => boolean
  /** Whether a firing is the current one of its timer (then the timer is done). */
  readonly take: (kind: K, generation: number) => boolean
}

export const make = <K extends string>(
  fire: (kind: K, generation: number) => Effect.Effect<void>
): LoopTimers<K> => {
  const running = new Map<K, { readonly generation: number; readonly fiber: Fiber.RuntimeFiber<void> }>()
  let generation = 0
  const stop = (kind: K) =>
    Effect.suspend(() => {
      const timer = running.get(kind)
      running.delete(kind)
      return timer === undefined ? Effect.void : Fiber.interrupt(timer.fiber)
    })
  return {
    start: (kind, millis) =>
      Effect.gen(function* () {
        yield* stop(kind)
        const mine = ++generation
        const fiber = yield* Effect.forkScoped(
          Effect.zipRight(Effect.sleep(Duration.millis(millis)), fire(kind, mine))
        )
        running.set(kind, { generation: mine, fiber })
      }),
    stop,
    isRunning: (kind) => running.has(kind),
    take: (kind, mine) => {
      if (running.get(kind)?.generation !== mine) return false
      running.delete(kind)
      return true
    }
  }
}
