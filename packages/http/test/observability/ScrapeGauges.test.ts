import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { boundedRefresh } from "../../src/observability/MetricsRoute.js"

describe("the scrape-time gauges (boundedRefresh)", () => {
  it.effect("reads once per interval however many scrapes come, and again after it", () =>
    Effect.gen(function* () {
      let reads = 0
      const refresh = yield* boundedRefresh(
        Effect.sync(() => {
          reads++
        }),
        { reuseFor: Duration.millis(300), timeout: Duration.seconds(5) }
      )
      yield* Effect.all([refresh, refresh, refresh], { concurrency: "unbounded" })
      yield* refresh
      expect(reads).toBe(1)
      yield* TestClock.adjust(Duration.millis(299))
      yield* refresh
      expect(reads).toBe(1)
      yield* TestClock.adjust(Duration.millis(1))
      yield* refresh
      expect(reads).toBe(2)
    })
  )

  it.effect("cuts a reading that hangs at its timeout and serves the scrape anyway", () =>
    Effect.gen(function* () {
      const refresh = yield* boundedRefresh(Effect.never, {
        reuseFor: Duration.seconds(5),
        timeout: Duration.millis(100)
      })
      const scrape = yield* Effect.fork(refresh)
      yield* TestClock.adjust(Duration.millis(99))
      expect(yield* Fiber.poll(scrape)).toEqual(Option.none())
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* Fiber.join(scrape)).toBeUndefined()
    })
  )
})
