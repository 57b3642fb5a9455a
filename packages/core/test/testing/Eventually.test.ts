import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { eventually, eventuallyDefined } from "../../testing/Eventually.js"

describe("eventually", () => {
  it.effect("answers the first answer that holds, read again until then, on the test clock too", () =>
    Effect.gen(function* () {
      let reads = 0
      const read = Effect.sync(() => ++reads)
      expect(yield* eventually(read, (n) => n >= 3, { what: "three reads", everyMs: 1 })).toBe(3)
      expect(reads).toBe(3)
    })
  )

  it.effect("dies naming what it waited for once the bound passes", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        eventually(Effect.succeed(false), (done) => done, { what: "the impossible", withinMs: 30 })
      )
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain("the impossible: not within 30 ms")
    })
  )

  it("eventuallyDefined polls a promise until it answers something, and rejects when it never does", async () => {
    let calls = 0
    await expect(
      eventuallyDefined(async () => (++calls === 2 ? "found" : undefined), { what: "a find", everyMs: 1 })
    ).resolves.toBe("found")
    await expect(eventuallyDefined(async () => undefined, { what: "nothing", withinMs: 30 })).rejects.toThrow(
      "nothing: not within 30 ms"
    )
  })
})
