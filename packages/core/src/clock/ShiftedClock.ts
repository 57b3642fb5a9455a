import { Clock, Config, Effect, Layer } from "effect"

/**
 * A clock `offsetMillis` ahead of `live` (behind when negative): it runs at `live`'s speed and sleeps on
 * `live`, so timers, deadlines and back-offs keep their length; only the instant it reads is moved. For a
 * test that runs a real server at a chosen time of day (calling hours decide by the number's local time),
 * whatever the machine's clock says; effect's `TestClock` is for tests that move time themselves.
 */
export const by = (offsetMillis: number, live: Clock.Clock = Clock.make()): Clock.Clock => {
  const millis = () => live.unsafeCurrentTimeMillis() + offsetMillis
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: millis,
    currentTimeMillis: Effect.sync(millis),
    unsafeCurrentTimeNanos: () => BigInt(Math.round(millis())) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(millis())) * 1_000_000n),
    sleep: (duration) => live.sleep(duration)
  }
}

/** A clock that reads `start` now and runs on from there with `live`. */
export const startingAt = (start: Date, live: Clock.Clock = Clock.make()): Clock.Clock =>
  by(start.getTime() - live.unsafeCurrentTimeMillis(), live)

/** Everything built and run under this layer reads the machine's clock shifted by `offsetMillis`. */
export const layer = (offsetMillis: number): Layer.Layer<never> => Layer.setClock(by(offsetMillis))

/**
 * `CLOCK_OFFSET_SECONDS`, for tests only: how far the bundled server's clock runs ahead of the machine's
 * (negative: behind; fractions allowed). An offset rather than an instant, so that servers started at
 * different times with the same setting agree. Default 0 (always in production): the machine's clock.
 */
export const config: Config.Config<number> = Config.number("CLOCK_OFFSET_SECONDS").pipe(
  Config.validate({
    message: "CLOCK_OFFSET_SECONDS must be a number of seconds",
    validation: (seconds) => Number.isFinite(seconds)
  }),
  Config.withDefault(0)
)
