import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Duration, Effect, Fiber, Option, TestClock } from "effect"
import * as ClockStart from "../../src/clock/ClockStart.js"

describe("a clock that starts at a chosen instant", () => {
  it.effect("reads the start, then runs on with the clock it shifts, and sleeps on that clock", () =>
    Effect.gen(function* () {
      // on the test clock (the live one it shifts), so every figure is exact
      const live = yield* Effect.clock
      const start = new Date("2026-11-28T02:00:00.000Z")
      const shifted = ClockStart.startingAt(start, live)
      expect(shifted.unsafeCurrentTimeMillis()).toBe(start.getTime())
      const slept = yield* Effect.fork(shifted.sleep(Duration.seconds(90)))
      yield* TestClock.adjust(Duration.seconds(90))
      yield* Fiber.join(slept)
      expect(yield* shifted.currentTimeMillis).toBe(start.getTime() + 90_000)
      expect(yield* shifted.currentTimeNanos).toBe(BigInt(start.getTime() + 90_000) * 1_000_000n)
    })
  )

  it.live("its layer gives what runs under it the shifted clock, near the start in real time", () =>
    Effect.gen(function* () {
      const start = new Date("2026-11-28T21:30:00.000Z")
      const read = yield* Clock.currentTimeMillis.pipe(Effect.provide(ClockStart.layer(start)))
      // a generous bound (the layer is built and read at once), not a measurement
      expect(read - start.getTime()).toBeGreaterThanOrEqual(0)
      expect(read - start.getTime()).toBeLessThan(60_000)
    })
  )

  it.effect("CLOCK_START is an ISO instant, unset by default", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        Effect.withConfigProvider(ClockStart.config, ConfigProvider.fromJson(env))
      expect(yield* read({})).toEqual(Option.none())
      expect(yield* read({ CLOCK_START: "2026-11-28T02:00:00Z" })).toEqual(
        Option.some(new Date("2026-11-28T02:00:00Z"))
      )
      expect((yield* Effect.either(read({ CLOCK_START: "at three" })))._tag).toBe("Left")
    })
  )
})
