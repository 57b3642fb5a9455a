import { Deferred, Effect, FiberId } from "effect"
import * as CoalescedReads from "../../src/reads/CoalescedReads.js"

/** How a read under way ends. */
export type Outcome = "answer" | "fail" | "die"

/**
 * Coalesced reads over a pretend database: every key has a version that `write` raises; a read of a key
 * takes the version when it starts (its snapshot), then waits until the test ends it (`end`), answering
 * the snapshot, failing with it, or dying with it. Counts reads and notes any two of one key at once.
 */
export const harness = (
  options: { readonly maxBatch?: number; readonly nextTurn?: Effect.Effect<void> } = {}
) => {
  const reads = CoalescedReads.make<number, string>(options)
  const versions = new Map<string, number>()
  const underWay = new Map<string, Array<Deferred.Deferred<Outcome>>>()
  let started = 0
  let overlapping = 0
  let interrupted = 0
  const readOf = (key: string) =>
    Effect.suspend(() => {
      const snapshot = versions.get(key) ?? 0
      started++
      const gate = Deferred.unsafeMake<Outcome>(FiberId.none)
      const list = underWay.get(key) ?? []
      if (list.length > 0) overlapping++
      list.push(gate)
      underWay.set(key, list)
      return Deferred.await(gate).pipe(
        Effect.ensuring(Effect.sync(() => list.splice(list.indexOf(gate), 1))),
        Effect.onInterrupt(() => Effect.sync(() => interrupted++)),
        Effect.flatMap((outcome) =>
          outcome === "answer"
            ? Effect.succeed(snapshot)
            : outcome === "fail"
              ? Effect.fail(`failed at ${snapshot}`)
              : Effect.die(new Error(`died at ${snapshot}`))
        )
      )
    })
  return {
    reads,
    /** A caller asking for `key`. */
    read: (key: string) => reads.read(key, readOf(key)),
    write: (key: string) => versions.set(key, (versions.get(key) ?? 0) + 1),
    version: (key: string) => versions.get(key) ?? 0,
    /** Ends the read of `key` under way, if any; answers whether there was one. */
    end: (key: string, outcome: Outcome = "answer") =>
      Effect.suspend(() => {
        const gate = underWay.get(key)?.[0]
        return gate === undefined ? Effect.succeed(false) : Effect.as(Deferred.succeed(gate, outcome), true)
      }),
    underWay: (key: string) => underWay.get(key)?.length ?? 0,
    started: () => started,
    /** Reads stopped before they ended. */
    interrupted: () => interrupted,
    overlapping: () => overlapping
  }
}

const turn = Effect.async<void>((resume) => {
  setImmediate(() => resume(Effect.void))
})

/**
 * Lets every fiber that can run, run (forked callers join, reads start after their turn of the event
 * loop, answers arrive).
 */
export const settle: Effect.Effect<void> = Effect.repeatN(
  Effect.zipRight(Effect.repeatN(Effect.yieldNow(), 10), turn),
  4
)

/** Resumes once `reads` has exactly `count` callers waiting for `key` (bounded by the test's timeout). */
export const waitingFor = (
  reads: { readonly waiting: (key: string) => number },
  key: string,
  count: number
): Effect.Effect<void> =>
  Effect.suspend(() =>
    reads.waiting(key) === count ? Effect.void : Effect.zipRight(turn, waitingFor(reads, key, count))
  )
