import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Logger, Option, TestClock } from "effect"
import { RunId } from "../../src/runs/RunId.js"
import type { RunStore } from "../../src/runs/RunStore.js"
import * as LiveCall from "../../src/voice/LiveCall.js"

describe("LiveCall.untilRunEnded", () => {
  it.effect(
    "reads the run every interval until it is final; a read that fails is logged and tried again",
    () =>
      Effect.gen(function* () {
        const answers = [
          Effect.die(new Error("the database is gone")),
          Effect.succeed(Option.some({ status: "in_progress" })),
          Effect.succeed(Option.some({ status: "completed" }))
        ]
        let reads = 0
        const runs = {
          // an effect run again on every read, as a store's
          findAnyOrganization: () => Effect.suspend(() => answers[Math.min(reads++, answers.length - 1)]!)
        } as unknown as RunStore["Type"]
        const logged: Array<{ level: string; message: unknown; failed: boolean }> = []
        const recording = Logger.make(({ logLevel, message, cause }) => {
          logged.push({ level: logLevel.label, message, failed: cause._tag !== "Empty" })
        })
        const waiting = yield* Effect.fork(
          LiveCall.untilRunEnded(runs, RunId.make(7), "5 seconds").pipe(
            Effect.provide(Logger.replace(Logger.defaultLogger, recording))
          )
        )
        yield* Effect.yieldNow()
        expect(reads).toBe(1)
        yield* TestClock.adjust("5 seconds")
        yield* Effect.yieldNow()
        expect(reads).toBe(2)
        expect(waiting.unsafePoll()).toBeNull()
        yield* TestClock.adjust("5 seconds")
        yield* Fiber.join(waiting)
        expect(reads).toBe(3)
        expect(logged).toEqual([
          { level: "WARN", message: ["run 7: reading whether it ended failed; trying again"], failed: true }
        ])
      })
  )
})
