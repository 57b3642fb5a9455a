import { Clock, Config, Effect, Layer, type Option } from "effect"

/**
 * A clock that reads `start` when it is made and runs on from there at real speed. It sleeps in real time,
 * so timers, deadlines and back-offs behave as on the machine's clock; only the instant it reads is moved.
 * For a test that runs a real server at a chosen time of day (calling hours decide by the number's local
 * time), whatever the machine's clock says; effect's `TestClock` is for tests that move time themselves.
 */
export const startingAt = (start: Date, live: Clock.Clock = Clock.make()): Clock.Clock => {
  const shiftMillis = start.getTime() - live.unsafeCurrentTimeMillis()
  const millis = () => live.unsafeCurrentTimeMillis() + shiftMillis
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    currentTimeMillis: Effect.sync(millis),
    unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
    sleep: (duration) => live.sleep(duration)
  }
}

/** Everything built and run under this layer reads `startingAt(start)`. */
export const layer = (start: Date): Layer.Layer<never> => Layer.setClock(startingAt(start))

/**
 * `CLOCK_START`, for tests only: an ISO 8601 instant the bundled server's clock reads when it starts (then
 * runs on at real speed). Unset (the default, and always in production): the machine's clock.
 */
export const config: Config.Config<Option.Option<Date>> = Config.option(Config.date("CLOCK_START"))
