import { Context, Effect, Exit, FiberRef, Layer, Option } from "effect"
import * as RandomIds from "../randomness/RandomIds.js"
import { Transactions, markedInTransaction } from "../storage/Transactions.js"

/** One table: rows by key. Rows are immutable values; writers replace them. */
export interface MemoryTable<K, V> {
  readonly get: (key: K) => V | undefined
  readonly set: (key: K, value: V) => void
  readonly delete: (key: K) => boolean
  readonly values: () => ReadonlyArray<V>
  /** Replaces the row under `key` with `change(row)` and answers the new row; None when there is none. */
  readonly replace: (key: K, change: (row: V) => V) => Option.Option<V>
}

/**
 * The in-memory adapters' shared state: named tables and the ids each has handed out, guarded by one lock.
 *
 * Every store operation is a synchronous step run under the lock, so a single operation is atomic.
 * A transaction holds the lock for its whole duration (operations inside it run directly) and restores
 * every table when it fails, which gives the same all-or-nothing and isolation that the SQL adapter gets
 * from the database.
 */
export class MemoryTables {
  private tables = new Map<string, Map<unknown, unknown>>()
  private readonly issued = new Map<string, Set<number>>()
  private readonly sequences = new Map<string, number>()
  private readonly lock = Effect.unsafeMakeSemaphore(1)
  private readonly inTransaction = FiberRef.unsafeMake(false)

  /** A view of the named table; it stays valid across transaction rollbacks. */
  table<K, V>(name: string): MemoryTable<K, V> {
    const rows = (): Map<K, V> => {
      let table = this.tables.get(name)
      if (table === undefined) {
        table = new Map()
        this.tables.set(name, table)
      }
      return table as Map<K, V>
    }
    return {
      get: (key) => rows().get(key),
      set: (key, value) => void rows().set(key, value),
      delete: (key) => rows().delete(key),
      values: () => Array.from(rows().values()),
      replace: (key, change) => {
        const current = rows().get(key)
        if (current === undefined) return Option.none()
        const next = change(current)
        rows().set(key, next)
        return Option.some(next)
      }
    }
  }

  /**
   * A new id of a sequence: random in 1..2^53−1 (see `RandomIds`), never handed out before by this
   * database. Like SQL ids, not given back when a transaction is rolled back.
   */
  nextId(sequence: string): number {
    let issued = this.issued.get(sequence)
    if (issued === undefined) {
      issued = new Set()
      this.issued.set(sequence, issued)
    }
    let id = RandomIds.draw()
    while (issued.has(id)) id = RandomIds.draw()
    issued.add(id)
    return id
  }

  /**
   * The next number of a counted sequence, starting at 1, for numbers no tenant sees (API key ids, the
   * order campaign contacts were added) whose order is the order of creation. Like SQL sequences, not rolled back.
   */
  nextNumber(sequence: string): number {
    const next = (this.sequences.get(sequence) ?? 0) + 1
    this.sequences.set(sequence, next)
    return next
  }

  /** Runs a synchronous read or write as one atomic step, after any transaction in progress. */
  atomically<A>(step: () => A): Effect.Effect<A> {
    return Effect.flatMap(FiberRef.get(this.inTransaction), (inside) =>
      inside ? Effect.sync(step) : this.lock.withPermits(1)(Effect.sync(step))
    )
  }

  /**
   * Runs an effect as one transaction: serialised with every other access, undone when it fails. A
   * transaction inside a transaction behaves like a SQL savepoint: when it fails only its own writes are
   * undone, and the outer transaction may catch the failure and go on.
   */
  transaction<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    const undoneOnFailure = Effect.suspend(() => {
      const snapshot = new Map(Array.from(this.tables, ([name, rows]) => [name, new Map(rows)]))
      return effect.pipe(
        Effect.locally(this.inTransaction, true),
        Effect.onExit((exit) =>
          Exit.isFailure(exit)
            ? Effect.sync(() => {
                this.tables = snapshot
              })
            : Effect.void
        )
      )
    })
    return Effect.flatMap(FiberRef.get(this.inTransaction), (inside) =>
      inside ? undoneOnFailure : this.lock.withPermits(1)(undoneOnFailure)
    )
  }
}

/** The in-memory database of one storage instance: its tables, ids and lock, shared by every memory store. */
export class MemoryDatabase extends Context.Tag("@voice-agent-platform/core/MemoryDatabase")<
  MemoryDatabase,
  MemoryTables
>() {}

/** A fresh, empty in-memory database. */
export const layer: Layer.Layer<MemoryDatabase> = Layer.sync(MemoryDatabase, () => new MemoryTables())

/** Transactions over the in-memory database. */
export const layerTransactions: Layer.Layer<Transactions, never, MemoryDatabase> = Layer.effect(
  Transactions,
  Effect.map(MemoryDatabase, (db) => ({ run: (effect) => db.transaction(markedInTransaction(effect)) }))
)

/** Display order of every list: newest first, ties broken by the higher id. */
export const newestFirst = <T>(
  rows: ReadonlyArray<T>,
  createdAt: (row: T) => Date,
  id: (row: T) => number | string
) =>
  [...rows].sort((a, b) => {
    const byTime = createdAt(b).getTime() - createdAt(a).getTime()
    if (byTime !== 0) return byTime
    const ia = id(a)
    const ib = id(b)
    return ia < ib ? 1 : ia > ib ? -1 : 0
  })
