import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { boundedRefresh } from "../../src/observability/MetricsRoute.js"

describe("the scrape-time gauges (boundedRefresh)", () => {
  it.live("reads once per interval however many scrapes come, and again after it", () =>
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
      yield* Effect.sleep(Duration.millis(400))
      yield* refresh
      expect(reads).toBe(2)
    })
  )

  it.live("cuts a reading that hangs at its timeout and serves the scrape anyway", () =>
    Effect.gen(function* () {
      const refresh = yield* boundedRefresh(Effect.never, {
        reuseFor: Duration.seconds(5),
        timeout: Duration.millis(100)
      })
      const started = Date.now()
      yield* refresh
      // bounded well under the test's own timeout, however loaded the machine
      expect(Date.now() - started).toBeLessThan(4000)
    })
  )
})
