import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Exit, Fiber, Stream } from "effect"
import * as ScopedStream from "../../src/streams/ScopedStream.js"

/** A stream whose making acquires a resource in its scope; `log` records what happens, in order. */
const made = (log: Array<string>, inner: Stream.Stream<number, string>) =>
  ScopedStream.unwrapScoped(
    Effect.as(
      Effect.acquireRelease(
        Effect.sync(() => log.push("acquired")),
        (_, exit) => Effect.sync(() => log.push(`released ${exit._tag}`))
      ),
      inner.pipe(Stream.ensuring(Effect.sync(() => log.push("inner done"))))
    )
  )

describe("ScopedStream.unwrapScoped", () => {
  it.effect("runs the stream the effect makes, then closes its scope after the stream's own finalizers", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const all = yield* Stream.runCollect(made(log, Stream.make(1, 2, 3)))
      expect(Chunk.toReadonlyArray(all)).toEqual([1, 2, 3])
      expect(log).toEqual(["acquired", "inner done", "released Success"])
    })
  )

  it.effect("closes the scope with the failure when the stream fails, and when the making fails", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const failed = yield* Effect.exit(
        Stream.runCollect(made(log, Stream.concat(Stream.make(1), Stream.fail("broken"))))
      )
      expect(failed).toEqual(Exit.fail("broken"))
      expect(log).toEqual(["acquired", "inner done", "released Failure"])
      const released: Array<string> = []
      const notMade = ScopedStream.unwrapScoped(
        Effect.zipRight(
          Effect.acquireRelease(Effect.void, (_, exit) => Effect.sync(() => released.push(exit._tag))),
          Effect.fail("cannot make it") as Effect.Effect<Stream.Stream<number>, string>
        )
      )
      expect(yield* Effect.exit(Stream.runCollect(notMade))).toEqual(Exit.fail("cannot make it"))
      expect(released).toEqual(["Failure"])
    })
  )

  it.effect("closes the scope when the consumer stops early or is interrupted", () =>
    Effect.gen(function* () {
      const early: Array<string> = []
      const taken = yield* Stream.runCollect(Stream.take(made(early, Stream.make(1, 2, 3)), 1))
      expect(Chunk.toReadonlyArray(taken)).toEqual([1])
      expect(early).toEqual(["acquired", "inner done", "released Success"])
      const interrupted: Array<string> = []
      const fiber = yield* Effect.fork(Stream.runDrain(made(interrupted, Stream.never)))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(fiber)
      expect(interrupted).toEqual(["acquired", "inner done", "released Failure"])
    })
  )
})
