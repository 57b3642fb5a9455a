import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Exit, FastCheck, Fiber, Stream } from "effect"
import * as EventQueue from "../../src/voice/EventQueue.js"

/** Every event `runForEach` gives, and how it ended. */
const readAll = <A, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function* () {
    const seen: Array<A> = []
    const result = yield* Effect.either(
      EventQueue.runForEach(stream, (event) => Effect.sync(() => seen.push(event)))
    )
    return { seen, result }
  })

describe("EventQueue", () => {
  it.effect("a reader gets the events offered before and after it began, in order, then the end", () =>
    Effect.gen(function* () {
      const queue = EventQueue.make<number, string>()
      queue.offer(1)
      queue.offer(2)
      const reading = yield* Effect.fork(readAll(queue.stream))
      yield* Effect.yieldNow()
      queue.offer(3)
      yield* Effect.yieldNow()
      queue.offer(4)
      queue.end()
      queue.offer(5)
      const { result, seen } = yield* Fiber.join(reading)
      expect(seen).toEqual([1, 2, 3, 4])
      expect(Either.isRight(result)).toBe(true)
    })
  )

  it.effect("a failure comes after the events before it; the first end or failure is the one kept", () =>
    Effect.gen(function* () {
      const queue = EventQueue.make<number, string>()
      queue.offer(1)
      queue.fail("dropped")
      queue.end()
      queue.fail("again")
      expect(queue.isDone()).toBe(true)
      const { result, seen } = yield* readAll(queue.stream)
      expect(seen).toEqual([1])
      expect(Either.isLeft(result) && result.left).toBe("dropped")
      // the end stays: a later reader meets it too
      expect(Either.isLeft((yield* readAll(queue.stream)).result)).toBe(true)
    })
  )

  it.effect("a reader interrupted while it waits loses nothing: the next reader reads on", () =>
    Effect.gen(function* () {
      const queue = EventQueue.make<number, string>()
      const firstSeen: Array<number> = []
      const first = yield* Effect.fork(
        EventQueue.runForEach(queue.stream, (event) => Effect.sync(() => firstSeen.push(event)))
      )
      queue.offer(1)
      yield* Effect.yieldNow()
      yield* Effect.yieldNow()
      expect(firstSeen).toEqual([1])
      yield* Fiber.interrupt(first)
      // offered after the first reader stopped, and while it was being stopped
      queue.offer(2)
      queue.offer(3)
      expect(queue.size()).toBe(2)
      queue.end()
      const { seen } = yield* readAll(queue.stream)
      expect(seen).toEqual([2, 3])
      expect(queue.size()).toBe(0)
    })
  )

  it.effect("readers interrupted while they wait, one after another, leave a queue that still delivers", () =>
    Effect.gen(function* () {
      const queue = EventQueue.make<number, string>()
      // more than the waiters kept at once: the stale ones are woken, harmlessly
      for (let i = 0; i < 200; i++) {
        const reader = yield* Effect.fork(EventQueue.runForEach(queue.stream, () => Effect.void))
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(reader)
      }
      const seen: Array<number> = []
      const last = yield* Effect.fork(
        EventQueue.runForEach(queue.stream, (event) => Effect.sync(() => seen.push(event)))
      )
      yield* Effect.yieldNow()
      queue.offer(7)
      queue.end()
      yield* Fiber.join(last)
      expect(seen).toEqual([7])
    })
  )

  it.effect("a tapped view runs its step before each event's handler, for both ways of reading it", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const queue = EventQueue.make<number, string>()
      const view = EventQueue.tapped(queue.stream, (event) => Effect.sync(() => log.push(`before ${event}`)))!
      queue.offer(1)
      queue.offer(2)
      yield* Effect.fork(
        EventQueue.runForEach(view, (event) => Effect.sync(() => log.push(`read ${event}`))).pipe(
          Effect.zipRight(Effect.sync(() => log.push("reader ended")))
        )
      )
      yield* Effect.yieldNow()
      queue.offer(3)
      queue.end()
      yield* Effect.repeatN(Effect.yieldNow(), 5)
      expect(log).toEqual(["before 1", "read 1", "before 2", "read 2", "before 3", "read 3", "reader ended"])

      const other = EventQueue.make<number, string>()
      const stepped: Array<number> = []
      other.offer(4)
      other.offer(5)
      other.end()
      const viewed = EventQueue.tapped(other.stream, (event) => Effect.sync(() => stepped.push(event)))!
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(viewed))).toEqual([4, 5])
      expect(stepped).toEqual([4, 5])
      expect(EventQueue.tapped(Stream.make(1), () => Effect.void)).toBeNull()
    })
  )

  it.scoped(
    "fromStream: a stream of this module as it is; any other read into one, its end or failure too",
    () =>
      Effect.gen(function* () {
        const queue = EventQueue.make<number, string>()
        expect(yield* EventQueue.fromStream(queue.stream)).toBe(queue.stream)

        const copied = yield* EventQueue.fromStream(Stream.make(1, 2, 3))
        expect(EventQueue.isEventStream(copied)).toBe(true)
        expect(yield* readAll(copied)).toEqual({ seen: [1, 2, 3], result: Either.right(undefined) })

        const failing = yield* EventQueue.fromStream(
          Stream.concat(Stream.make(1), Stream.fail("broken")) as Stream.Stream<number, string>
        )
        const { result, seen } = yield* readAll(failing)
        expect(seen).toEqual([1])
        expect(Either.isLeft(result) && result.left).toBe("broken")
      })
  )

  it.effect("any other stream is run by Stream.runForEach", () =>
    Effect.gen(function* () {
      expect(yield* readAll(Stream.make(1, 2) as Stream.Stream<number, string>)).toEqual({
        seen: [1, 2],
        result: Either.right(undefined)
      })
    })
  )

  it.effect.prop(
    "whatever the offers and the waits between them, both ways of reading give every event, in order, once",
    [
      FastCheck.array(FastCheck.array(FastCheck.integer(), { maxLength: 5 }), { maxLength: 20 }),
      FastCheck.boolean()
    ],
    ([bursts, fails]) =>
      Effect.gen(function* () {
        const offered = bursts.flat()
        const read = (useStream: boolean) =>
          Effect.gen(function* () {
            const queue = EventQueue.make<number, string>()
            const seen: Array<number> = []
            const reader = yield* Effect.fork(
              useStream
                ? Stream.runForEach(
                    Stream.map(queue.stream, (n) => n),
                    (n) => Effect.sync(() => seen.push(n))
                  )
                : EventQueue.runForEach(queue.stream, (n) => Effect.sync(() => seen.push(n)))
            )
            for (const burst of bursts) {
              for (const event of burst) queue.offer(event)
              yield* Effect.yieldNow()
            }
            if (fails) queue.fail("failed")
            else queue.end()
            const exit = yield* Fiber.await(reader)
            return { seen, failed: Exit.isFailure(exit) }
          })
        const direct = yield* read(false)
        const streamed = yield* read(true)
        expect(direct).toEqual({ seen: offered, failed: fails })
        expect(streamed).toEqual(direct)
      })
  )
})
