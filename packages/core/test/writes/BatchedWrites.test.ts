import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, FastCheck, Fiber, Scope } from "effect"
import * as BatchedWrites from "../../src/writes/BatchedWrites.js"

/** An item: a number written as its double, or refused (a typed failure) when `refuse` is set. */
interface Item {
  readonly n: number
  readonly refuse?: boolean
  /** The whole batch holding it fails (a broken transaction): its batch is split and written again. */
  readonly breaksBatch?: boolean
  /** Items of different groups are never in one batch (default "a"). */
  readonly group?: string
}

const groupOf = (item: Item) => item.group ?? "a"

const outcomeOf = (item: Item): Exit.Exit<number, string> =>
  item.refuse === true ? Exit.fail(`refused ${item.n}`) : Exit.succeed(item.n * 2)

/**
 * A writer whose turn the test can hold (one permit it takes first), recording each batch's items and
 * each item written alone.
 */
const harness = (options: { readonly workers: number; readonly maxBatch: number }) =>
  Effect.gen(function* () {
    const batches: Array<ReadonlyArray<number>> = []
    const batchGroups: Array<ReadonlyArray<string>> = []
    const alone: Array<number> = []
    const turns = yield* Effect.makeSemaphore(1)
    const writes = yield* BatchedWrites.make<Item, number, string>({
      ...options,
      groupOf,
      turn: turns.withPermits(1),
      writeBatch: (items) =>
        Effect.suspend(() => {
          batches.push(items.map((i) => i.n))
          batchGroups.push(items.map(groupOf))
          return items.some((i) => i.breaksBatch === true)
            ? Effect.dieMessage("the transaction broke")
            : Effect.succeed(items.map(outcomeOf))
        }),
      writeOne: (item) =>
        Effect.suspend(() => {
          alone.push(item.n)
          return item.refuse === true ? Effect.fail(`refused ${item.n}`) : Effect.succeed(item.n * 2)
        })
    })
    return { writes, batches, batchGroups, alone, turns }
  })

/** Waits (yielding to other fibers) until `n` items are waiting for a worker. */
const untilWaiting = (writes: BatchedWrites.BatchedWrites<Item, number, string>, n: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < 10_000; i++) {
      if (writes.waiting() >= n) return
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage(`never ${n} waiting`)
  })

describe("BatchedWrites", () => {
  it.scoped("an item submitted alone is written at once, in a batch of its own", () =>
    Effect.gen(function* () {
      const h = yield* harness({ workers: 2, maxBatch: 10 })
      expect(yield* h.writes.submit({ n: 4 })).toBe(8)
      expect(h.batches).toEqual([[4]])
    })
  )

  it.scoped("items that wait for a turn are written together, at most maxBatch a batch, in order", () =>
    Effect.gen(function* () {
      const h = yield* harness({ workers: 1, maxBatch: 4 })
      // the only turn is held: the worker takes the oldest item and waits, the others queue behind it
      const released = yield* h.turns.take(1)
      const all = yield* Effect.fork(
        Effect.forEach([1, 2, 3, 4, 5, 6, 7], (n) => h.writes.submit({ n }), { concurrency: "unbounded" })
      )
      yield* untilWaiting(h.writes, 6)
      yield* h.turns.release(released)
      expect(yield* Fiber.join(all)).toEqual([2, 4, 6, 8, 10, 12, 14])
      expect(h.batches).toEqual([
        [1, 2, 3, 4],
        [5, 6, 7]
      ])
    })
  )

  it.scoped("a refused item is refused alone; the rest of its batch is written", () =>
    Effect.gen(function* () {
      const h = yield* harness({ workers: 1, maxBatch: 10 })
      const released = yield* h.turns.take(1)
      const all = yield* Effect.fork(
        Effect.forEach(
          [{ n: 1 }, { n: 2, refuse: true }, { n: 3 }],
          (item) => Effect.exit(h.writes.submit(item)),
          {
            concurrency: "unbounded"
          }
        )
      )
      yield* untilWaiting(h.writes, 2)
      yield* h.turns.release(released)
      expect(yield* Fiber.join(all)).toEqual([Exit.succeed(2), Exit.fail("refused 2"), Exit.succeed(6)])
      expect(h.batches).toEqual([[1, 2, 3]])
      expect(h.alone).toEqual([])
    })
  )

  it.scoped(
    "a batch that fails as a whole is split in halves, down to the item that breaks it, written alone",
    () =>
      Effect.gen(function* () {
        const h = yield* harness({ workers: 1, maxBatch: 10 })
        const released = yield* h.turns.take(1)
        const all = yield* Effect.fork(
          Effect.forEach(
            [{ n: 1 }, { n: 2, breaksBatch: true }, { n: 3, refuse: true }],
            (item) => Effect.exit(h.writes.submit(item)),
            { concurrency: "unbounded" }
          )
        )
        yield* untilWaiting(h.writes, 2)
        yield* h.turns.release(released)
        expect(yield* Fiber.join(all)).toEqual([Exit.succeed(2), Exit.succeed(4), Exit.fail("refused 3")])
        // [1, 2, 3] fails: [1, 2] fails, [3] is written (refused alone); [1] is written, [2] fails, alone
        expect(h.batches).toEqual([[1, 2, 3], [1, 2], [1], [2], [3]])
        expect(h.alone).toEqual([2])
      })
  )

  it.scoped("a batch holds items of one group only, the oldest item's, the others' order kept", () =>
    Effect.gen(function* () {
      const h = yield* harness({ workers: 1, maxBatch: 10 })
      const released = yield* h.turns.take(1)
      const items: ReadonlyArray<Item> = [
        { n: 1, group: "a" },
        { n: 2, group: "b" },
        { n: 3, group: "a" },
        { n: 4, group: "c" },
        { n: 5, group: "b" }
      ]
      const all = yield* Effect.fork(
        Effect.forEach(items, (item) => h.writes.submit(item), { concurrency: "unbounded" })
      )
      yield* untilWaiting(h.writes, 4)
      yield* h.turns.release(released)
      expect(yield* Fiber.join(all)).toEqual([2, 4, 6, 8, 10])
      expect(h.batches).toEqual([[1, 3], [2, 5], [4]])
    })
  )

  it.scoped("an item whose caller stopped waiting is written all the same", () =>
    Effect.gen(function* () {
      const h = yield* harness({ workers: 1, maxBatch: 10 })
      const released = yield* h.turns.take(1)
      const gone = yield* Effect.fork(h.writes.submit({ n: 1 }))
      const waiting = yield* Effect.fork(h.writes.submit({ n: 2 }))
      yield* untilWaiting(h.writes, 1)
      yield* Fiber.interrupt(gone)
      yield* h.turns.release(released)
      expect(yield* Fiber.join(waiting)).toBe(4)
      expect(h.batches.flat()).toEqual([1, 2])
    })
  )

  it.effect("items still waiting when the scope closes are interrupted, not left waiting forever", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const h = yield* harness({ workers: 1, maxBatch: 10 }).pipe(Scope.extend(scope))
      yield* h.turns.take(1)
      const first = yield* Effect.fork(h.writes.submit({ n: 1 }))
      const second = yield* Effect.fork(h.writes.submit({ n: 2 }))
      yield* untilWaiting(h.writes, 1)
      yield* Scope.close(scope, Exit.void)
      // the first was taken by the worker (waiting for its turn), the second was still queued
      expect(Exit.isInterrupted(yield* Fiber.await(first))).toBe(true)
      expect(Exit.isInterrupted(yield* Fiber.await(second))).toBe(true)
      expect(h.batches).toEqual([])
      // and once closed, a new item is interrupted at once instead of waiting for workers that are gone
      expect(Exit.isInterrupted(yield* Effect.exit(h.writes.submit({ n: 3 })))).toBe(true)
    })
  )

  it.scoped.prop(
    "every item gets exactly its own outcome, whatever the batching",
    [
      FastCheck.array(
        FastCheck.record({
          n: FastCheck.integer({ min: 0, max: 1000 }),
          refuse: FastCheck.boolean(),
          breaksBatch: FastCheck.integer({ min: 0, max: 9 }).map((n) => n === 0),
          group: FastCheck.constantFrom("a", "b", "c")
        }),
        { maxLength: 40 }
      ),
      FastCheck.integer({ min: 1, max: 4 }),
      FastCheck.integer({ min: 1, max: 8 })
    ],
    ([items, workers, maxBatch]) =>
      Effect.gen(function* () {
        const h = yield* harness({ workers, maxBatch })
        const exits = yield* Effect.forEach(items, (item) => Effect.exit(h.writes.submit(item)), {
          concurrency: "unbounded"
        })
        expect(exits).toEqual(items.map(outcomeOf))
        expect(h.batches.every((b) => b.length >= 1 && b.length <= maxBatch)).toBe(true)
        expect(h.batchGroups.every((groups) => groups.every((g) => g === groups[0]))).toBe(true)
        // an item is written again only after a batch holding it failed as a whole: an item no batch
        // failed for was in exactly one batch
        const breaking = items.filter((i) => i.breaksBatch).length
        if (breaking === 0) {
          expect(h.batches.flat().sort((a, b) => a - b)).toEqual(items.map((i) => i.n).sort((a, b) => a - b))
          expect(h.alone).toEqual([])
        }
        // only an item that breaks every batch holding it is written alone
        expect(h.alone.length).toBe(breaking)
      }),
    { fastCheck: { numRuns: 100 } }
  )
})
