import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as LoopTimers from "../../src/voice/LoopTimers.js"

describe("LoopTimers", () => {
  it.scoped("fires once after its time; restarting replaces it, and an old firing is stale", () =>
    Effect.gen(function* () {
      const fired: Array<readonly [string, number]> = []
      const timers = LoopTimers.make<"a" | "b">((kind, generation) =>
        Effect.sync(() => {
          fired.push([kind, generation])
        })
      )
      yield* timers.start("a", 1000)
      yield* TestClock.adjust("999 millis")
      expect(fired).toEqual([])
      yield* timers.start("a", 1000) // replaces the first
      yield* TestClock.adjust("1 millis")
      expect(fired).toEqual([])
      yield* TestClock.adjust("999 millis")
      expect(fired).toEqual([["a", 2]])
      expect(timers.take("a", 1)).toBe(false)
      expect(timers.take("a", 2)).toBe(true)
      expect(timers.isRunning("a")).toBe(false)
      yield* timers.start("b", 10)
      expect(timers.isRunning("b")).toBe(true)
      yield* timers.stop("b")
      yield* TestClock.adjust("1 second")
      expect(fired).toEqual([["a", 2]])
    })
  )
})
