import { Deferred, Effect, Exit, Queue, type Scope } from "effect"

/**
 * Writes that wait together are written together (a group commit): callers submit items and each waits
 * for its own item's outcome, while up to `workers` workers write whatever is waiting, at most `maxBatch`
 * items of one group (`groupOf`: an organization) at a time, in one transaction and a few set-based
 * statements instead of a transaction each.
 *
 * A worker takes the oldest waiting item, then its turn (`turn`: the same bound every other transaction
 * of its kind takes), then the items of that item's group that arrived meanwhile (up to `maxBatch`), and
 * writes them. So one caller alone is written at once, alone, and a burst is written in batches that grow
 * with the wait: the busier the writers, the fewer statements an item costs. A batch never mixes groups:
 * what holds one group's batch up (its rows locked elsewhere) holds up only that group's items, as it
 * would without batching.
 *
 * Every item gets exactly one outcome. `writeBatch` answers one exit per item, in order: an item can be
 * refused (a typed failure) while the others are written. When a batch fails as a whole (a failure or
 * defect of its transaction, rolled back whole), it is split in two halves written again, each in a turn
 * of its own, down to single items, which `writeOne` writes alone and answers with its own outcome: one
 * bad item costs a few more transactions, never the others' writes.
 *
 * A submitted item is written even when its caller stops waiting (interrupted, a deadline passed): a
 * reported fact is not lost because its reporter went away. When the scope closes (the server stops),
 * every item not yet answered is interrupted, and an item submitted afterwards is interrupted at once; an
 * item whose batch was committing then may have been written.
 */
export interface BatchedWrites<I, A, E> {
  /** Writes `item` (with others waiting at the same time) and answers its own outcome. */
  readonly submit: (item: I) => Effect.Effect<A, E>
  /** Items submitted and not yet taken by a worker (for tests and metrics). */
  readonly waiting: () => number
}

export interface BatchedWritesOptions<I, A, E> {
  /** Workers: at most this many batches are written at once. */
  readonly workers: number
  /** The most items one batch takes. */
  readonly maxBatch: number
  /** Items of different groups are never written in one batch. */
  readonly groupOf: (item: I) => string
  /** Runs each batch's write in its turn (taken before the write's connection). */
  readonly turn: <X, Y>(effect: Effect.Effect<X, Y>) => Effect.Effect<X, Y>
  /** Writes items of one group in one transaction; one exit per item, in order. */
  readonly writeBatch: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<Exit.Exit<A, E>>, unknown>
  /** Writes one item alone, in its own turn and transaction (after every batch holding it failed). */
  readonly writeOne: (item: I) => Effect.Effect<A, E>
}

interface Waiting<I, A, E> {
  readonly item: I
  readonly group: string
  readonly outcome: Deferred.Deferred<A, E>
}

/** Batched writes whose workers live as long as the scope. */
export const make = <I, A, E>(
  options: BatchedWritesOptions<I, A, E>
): Effect.Effect<BatchedWrites<I, A, E>, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (!(options.workers >= 1 && options.maxBatch >= 1)) {
      return yield* Effect.dieMessage("batched writes need at least one worker and one item a batch")
    }
    /** Items not yet taken, oldest first. */
    let queued: Array<Waiting<I, A, E>> = []
    /** Every item not yet answered, taken or not: the scope's end interrupts them all. */
    const unanswered = new Set<Waiting<I, A, E>>()
    let closed = false
    /** One token an item submitted: a worker wakes for each and takes the oldest item left, if any. */
    const arrivals = yield* Queue.unbounded<void>()

    const answer = (w: Waiting<I, A, E>, exit: Exit.Exit<A, E>) =>
      Effect.zipLeft(
        Deferred.done(w.outcome, exit),
        Effect.sync(() => unanswered.delete(w))
      )
    // runs after the workers are interrupted (finalizers run in reverse order): nobody waits forever
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        closed = true
        queued = []
        const left = Array.from(unanswered)
        unanswered.clear()
        return Effect.forEach(left, (w) => Deferred.interrupt(w.outcome), { discard: true })
      }).pipe(Effect.zipRight(Queue.shutdown(arrivals)))
    )

    /** Takes up to `n` queued items of `group`, oldest first, leaving the others in their order. */
    const takeOfGroup = (group: string, n: number) => {
      const taken: Array<Waiting<I, A, E>> = []
      const left: Array<Waiting<I, A, E>> = []
      for (const w of queued) {
        if (taken.length < n && w.group === group) taken.push(w)
        else left.push(w)
      }
      queued = left
      return taken
    }

    /** Answers a batch's items, or, when it failed as a whole, writes it again split, down to single items. */
    const settle = (
      taken: ReadonlyArray<Waiting<I, A, E>>,
      written: Exit.Exit<ReadonlyArray<Exit.Exit<A, E>>, unknown>
    ): Effect.Effect<void> => {
      if (Exit.isSuccess(written) && written.value.length === taken.length) {
        const exits = written.value
        return Effect.forEach(taken, (w, i) => answer(w, exits[i]!), { discard: true })
      }
      if (taken.length === 1) {
        const only = taken[0]!
        return Effect.flatMap(Effect.exit(options.writeOne(only.item)), (exit) => answer(only, exit))
      }
      const half = Math.ceil(taken.length / 2)
      return Effect.zipRight(writeAgain(taken.slice(0, half)), writeAgain(taken.slice(half)))
    }

    const writeBatch = (taken: ReadonlyArray<Waiting<I, A, E>>) =>
      Effect.exit(Effect.suspend(() => options.writeBatch(taken.map((w) => w.item))))

    /** Part of a failed batch, written in a turn of its own. */
    const writeAgain = (taken: ReadonlyArray<Waiting<I, A, E>>): Effect.Effect<void> =>
      Effect.flatMap(options.turn(writeBatch(taken)), (written) => settle(taken, written))

    /** One batch: the oldest item, then the turn, then what of its group arrived meanwhile. */
    const writeNext = Effect.flatMap(Queue.take(arrivals), () => {
      const first = queued.shift()
      // taken already, with a batch of its group
      if (first === undefined) return Effect.void
      return Effect.flatMap(
        options.turn(
          Effect.suspend(() => {
            const taken = [first, ...takeOfGroup(first.group, options.maxBatch - 1)]
            return Effect.map(writeBatch(taken), (written) => ({ taken, written }))
          })
        ),
        ({ taken, written }) => settle(taken, written)
      )
    })

    yield* Effect.forkScoped(
      Effect.forEach(Array.from({ length: options.workers }), () => Effect.forever(writeNext), {
        concurrency: "unbounded",
        discard: true
      })
    )

    return {
      submit: (item) =>
        Effect.flatMap(Deferred.make<A, E>(), (outcome) =>
          Effect.suspend(() => {
            if (closed) return Effect.interrupt
            const w: Waiting<I, A, E> = { item, group: options.groupOf(item), outcome }
            unanswered.add(w)
            queued.push(w)
            return Effect.zipRight(Queue.offer(arrivals, undefined), Deferred.await(outcome))
          })
        ),
      waiting: () => queued.length
    }
  })
