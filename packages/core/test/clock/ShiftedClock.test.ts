import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Duration, Effect, Fiber, TestClock } from "effect"
import * as ShiftedClock from "../../src/clock/ShiftedClock.js"

describe("a shifted clock", () => {
  it.effect("reads the clock it shifts plus the offset, runs on with it, and sleeps on it", () =>
    Effect.gen(function* () {
      // over the test clock, so every figure is exact
      const live = yield* Effect.clock
      const start = new Date("2026-11-28T02:00:00.000Z")
      const shifted = ShiftedClock.startingAt(start, live)
      expect(shifted.unsafeCurrentTimeMillis()).toBe(start.getTime())
      expect(ShiftedClock.by(-1500, live).unsafeCurrentTimeMillis()).toBe(
        live.unsafeCurrentTimeMillis() - 1500
      )
      const slept = yield* Effect.fork(shifted.sleep(Duration.seconds(90)))
      yield* TestClock.adjust(Duration.seconds(90))
      yield* Fiber.join(slept)
      expect(yield* shifted.currentTimeMillis).toBe(start.getTime() + 90_000)
      expect(yield* shifted.currentTimeNanos).toBe(BigInt(start.getTime() + 90_000) * 1_000_000n)
    })
  )

  it.live("its layer gives what runs under it the machine's clock shifted by the offset", () =>
    Effect.gen(function* () {
      const hours = 7 * 3_600_000
      const before = Date.now()
      const read = yield* Clock.currentTimeMillis.pipe(Effect.provide(ShiftedClock.layer(hours)))
      const after = Date.now()
      expect(read).toBeGreaterThanOrEqual(before + hours)
      expect(read).toBeLessThanOrEqual(after + hours)
    })
  )

  it.effect("CLOCK_OFFSET_SECONDS is a number of seconds, 0 by default", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        Effect.withConfigProvider(ShiftedClock.config, ConfigProvider.fromJson(env))
      expect(yield* read({})).toBe(0)
      expect(yield* read({ CLOCK_OFFSET_SECONDS: "-36000.5" })).toBe(-36000.5)
      expect((yield* Effect.either(read({ CLOCK_OFFSET_SECONDS: "at three" })))._tag).toBe("Left")
    })
  )
})
