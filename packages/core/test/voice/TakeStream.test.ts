import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Fiber, Queue, Stream, Take } from "effect"
import * as TakeStream from "../../src/voice/TakeStream.js"

describe("TakeStream.fromQueue", () => {
  it.effect("reads the values in order and ends at the end, as flattenTake over fromQueue does", () =>
    Effect.gen(function* () {
      const takes = [Take.of(1), Take.chunk(Chunk.make(2, 3)), Take.of(4), Take.end, Take.of(5)]
      const read = (
        stream: (queue: Queue.Queue<Take.Take<number, string>>) => Stream.Stream<number, string>
      ) =>
        Effect.gen(function* () {
          const queue = yield* Queue.unbounded<Take.Take<number, string>>()
          yield* Queue.offerAll(queue, takes)
          return Chunk.toReadonlyArray(yield* Stream.runCollect(stream(queue)))
        })
      expect(yield* read(TakeStream.fromQueue)).toEqual([1, 2, 3, 4])
      expect(yield* read((queue) => Stream.flattenTake(Stream.fromQueue(queue)))).toEqual([1, 2, 3, 4])
    })
  )

  it.effect("fails with a take's failure after the values before it", () =>
    Effect.gen(function* () {
      const queue = yield* Queue.unbounded<Take.Take<number, string>>()
      yield* Queue.offerAll(queue, [Take.of(1), Take.fail("dropped"), Take.of(2)])
      const seen: Array<number> = []
      const result = yield* Effect.either(
        Stream.runForEach(TakeStream.fromQueue(queue), (n) => Effect.sync(() => seen.push(n)))
      )
      expect(seen).toEqual([1])
      expect(Either.isLeft(result) && result.left).toBe("dropped")
    })
  )

  it.effect("waits for takes offered later, and ends when the queue is shut down", () =>
    Effect.gen(function* () {
      const queue = yield* Queue.unbounded<Take.Take<number, string>>()
      const reading = yield* Effect.fork(Stream.runCollect(TakeStream.fromQueue(queue)))
      yield* Effect.yieldNow()
      yield* Queue.offer(queue, Take.of(7))
      yield* Effect.yieldNow()
      yield* Queue.shutdown(queue)
      expect(Chunk.toReadonlyArray(yield* Fiber.join(reading))).toEqual([7])
    })
  )
})

describe("TakeStream.runForEach", () => {
  /** Each value `runForEach` gives `f`, and how the run ended, for `takes` offered before it runs. */
  const run = (
    takes: ReadonlyArray<Take.Take<number, string>>,
    stream: (queue: Queue.Queue<Take.Take<number, string>>) => Stream.Stream<number, string>
  ) =>
    Effect.gen(function* () {
      const queue = yield* Queue.unbounded<Take.Take<number, string>>()
      yield* Queue.offerAll(queue, takes)
      const seen: Array<number> = []
      const result = yield* Effect.either(
        TakeStream.runForEach(stream(queue), (n) => Effect.sync(() => seen.push(n)))
      )
      return { seen, result }
    })

  it.effect(
    "gives a queue's values in order and ends or fails as Stream.runForEach over the stream does",
    () =>
      Effect.gen(function* () {
        for (const takes of [
          [Take.of(1), Take.chunk(Chunk.make(2, 3)), Take.of(4), Take.end, Take.of(5)],
          [Take.of(1), Take.fail("dropped"), Take.of(2)],
          [Take.chunk(Chunk.empty<number>()), Take.of(6), Take.end]
        ]) {
          const direct = yield* run(takes, TakeStream.fromQueue)
          // another stream over the same takes: run by Stream.runForEach
          const staged = yield* run(takes, (queue) => Stream.flattenTake(Stream.fromQueue(queue)))
          expect(direct).toEqual(staged)
        }
        expect((yield* run([Take.of(1), Take.fail("dropped")], TakeStream.fromQueue)).result).toEqual(
          Either.left("dropped")
        )
      })
  )

  it.effect(
    "waits for takes offered later, ends when the queue is shut down, and stops when interrupted",
    () =>
      Effect.gen(function* () {
        const queue = yield* Queue.unbounded<Take.Take<number, string>>()
        const seen: Array<number> = []
        const reading = yield* Effect.fork(
          TakeStream.runForEach(TakeStream.fromQueue(queue), (n) => Effect.sync(() => seen.push(n)))
        )
        yield* Effect.yieldNow()
        yield* Queue.offer(queue, Take.of(7))
        yield* Effect.yieldNow()
        yield* Queue.shutdown(queue)
        yield* Fiber.join(reading)
        expect(seen).toEqual([7])

        const other = yield* Queue.unbounded<Take.Take<number, string>>()
        const waiting = yield* Effect.fork(
          TakeStream.runForEach(TakeStream.fromQueue(other), () => Effect.void)
        )
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(waiting)
        expect(yield* Queue.offer(other, Take.of(1))).toBe(true)
        expect(yield* Queue.size(other)).toBe(1)
      })
  )
})
