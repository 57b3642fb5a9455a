import { Effect } from "effect"

/** How `eventually` names what it waits for and how long it waits. */
export interface EventuallyOptions {
  /** What is awaited, for the failure's message. */
  readonly what: string
  /** Real milliseconds after which it fails (default 10 000): a generous bound, not a measurement. */
  readonly withinMs?: number
  /** Real milliseconds between two reads (default 20). */
  readonly everyMs?: number
}

// Real time: a test on the TestClock polls too (the test clock does not move network I/O or processes).
const realSleep = (millis: number) =>
  Effect.promise<void>(() => new Promise((resolve) => setTimeout(resolve, millis)))

/**
 * Reads `read` until `holds` accepts its answer and answers that answer; dies naming `what` if it never
 * does within `withinMs`. For state that other fibers, processes or servers change on their own time:
 * a test waits for the outcome instead of sleeping a guess. The bound runs on the monotonic clock, so a
 * machine's clock set elsewhere (faketime, a TZ) does not move it.
 */
export const eventually = <A, E, R>(
  read: Effect.Effect<A, E, R>,
  holds: (value: A) => boolean,
  options: EventuallyOptions
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    const withinMs = options.withinMs ?? 10_000
    const until = performance.now() + withinMs
    for (;;) {
      const value = yield* read
      if (holds(value)) return value
      if (performance.now() >= until) {
        return yield* Effect.dieMessage(`${options.what}: not within ${withinMs} ms`)
      }
      yield* realSleep(options.everyMs ?? 20)
    }
  })

/** `eventually` for a promise-based test: polls `check` until it answers something other than undefined. */
export const eventuallyDefined = <A>(
  check: () => Promise<A | undefined>,
  options: EventuallyOptions
): Promise<A> =>
  Effect.runPromise(
    Effect.map(
      eventually(
        Effect.promise(() => check()),
        (found) => found !== undefined,
        options
      ),
      (found) => found as A
    )
  )
