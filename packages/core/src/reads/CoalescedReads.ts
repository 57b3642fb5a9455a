import {
  Context,
  Deferred,
  Effect,
  Fiber,
  FiberId,
  FiberRef,
  type FiberRefs,
  HashMap,
  List,
  Metric,
  Tracer
} from "effect"

/**
 * Identical concurrent reads that share one read and its answer, without ever answering from a read that
 * began before the request did.
 *
 * A read of a key runs once for every caller that asked for that key before it started (a batch; a
 * batch's read begins once the event loop's turn in which it was opened is over). A
 * caller that arrives while the key's read is under way does not join it (that read may have begun
 * before a write the caller already saw committed); it joins the key's next batch, whose read starts as
 * soon as the one under way ends. So every caller's answer comes from a read that started after the
 * caller arrived: whatever was committed before a caller asked is in its answer, as if it had read
 * alone. Nothing is kept once a batch ends: no cache, nothing to invalidate. The same reasoning as the
 * lookups fence (`@voice-agent-platform/pg` `LookupFences`).
 *
 * A batch that nobody joined by the end of its turn (the usual case on users' traffic, where identical
 * requests at once are rare) is read by its opener, in its own fiber, as without coalescing: the
 * coalescing costs it a turn of the event loop and a map entry, nothing more (no fiber forked, no answer
 * handed over). A batch that others joined is read in a fiber of its own, detached from every caller: a
 * caller that goes away (its
 * client disconnected, its deadline passed) stops waiting, and the read goes on for the others; when the
 * last of them goes away the read is interrupted (nobody is left to answer), and the key's next batch
 * starts as after any other end. The read runs with the services of the caller that opened the batch,
 * but not as part of its request: no log annotations, log spans or parent span of it; its logs are
 * annotated `shared_by` (how many callers the batch took). Every
 * caller of a batch gets the read's very exit: the same value, the same failure, the same defect. A
 * failed read fails only its own batch; the next batch reads again. A batch nobody waits for any more
 * when its read would begin is dropped unread. A key's entry is removed when its last batch ends, so the
 * entries are at most the keys being read. A batch takes at most `maxBatch` callers; a caller that finds
 * the batch it would join full reads alone, as it would without coalescing.
 *
 * The key must name everything that changes the answer (the organization first: tenants never share),
 * and every caller of one key must pass a read that gives the same answer: the batch runs the read of
 * the caller that opened it.
 */
export interface CoalescedReads<A, E> {
  /** `read`'s answer, from a read of `key` that started after this call did (shared with others). */
  readonly read: (key: string, read: Effect.Effect<A, E>) => Effect.Effect<A, E>
  /** How many keys have a batch reading or waiting to read (for tests and metrics). */
  readonly keys: () => number
  /**
   * How many callers wait for `key`'s answer, in the batch under way (or about to begin) and the next
   * one (for tests and metrics; callers that read alone because a batch was full are not counted).
   */
  readonly waiting: (key: string) => number
}

/**
 * Resumes once this turn of the event loop is over (`setImmediate` where there is one, else a zero
 * timeout). A batch's read waits for it before it begins, so every caller read in the same turn joins
 * (the requests a server parsed from its sockets' data together), as the lookups fence does. Without
 * it, a read that never yields to the event loop (the embedded database runs in process) would begin
 * and end before the next request is even parsed, and no batch would ever hold more than one caller.
 */
export const nextTurn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const immediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate
  if (immediate !== undefined) immediate(() => resume(Effect.void))
  else setTimeout(() => resume(Effect.void), 0)
})

/** The default number of callers one batch takes (see `CoalescedReads`). */
export const defaultMaxBatch = 1024

interface Batch<A, E> {
  readonly answer: Deferred.Deferred<A, E>
  readonly read: Effect.Effect<A, E>
  /** The fiber-local values (services, span, log annotations) of the caller that opened the batch. */
  readonly opener: FiberRefs.FiberRefs
  /** The fiber running the batch, once forked (interrupted when every caller went away). */
  fiber: Fiber.RuntimeFiber<unknown> | undefined
  /** The read began: nobody joins this batch any more. */
  started: boolean
  /** Callers that joined. */
  joined: number
  /** Callers still waiting (joined less those that went away). */
  waiting: number
}

interface Entry<A, E> {
  /** The batch reading (or about to begin: `started` tells). */
  current: Batch<A, E>
  /** The batch that reads when `current` ends. */
  next: Batch<A, E> | undefined
}

/**
 * The read of a batch, detached from the request of the caller that opened it: its services stay, its
 * log annotations, log spans and parent span go; its logs say how many callers share it.
 */
const detached = <A, E>(read: Effect.Effect<A, E>, sharedBy: number): Effect.Effect<A, E> =>
  read.pipe(
    Effect.locally(FiberRef.currentLogAnnotations, HashMap.make(["shared_by", sharedBy] as const)),
    Effect.locally(FiberRef.currentLogSpan, List.empty()),
    Effect.locallyWith(FiberRef.currentContext, Context.omit(Tracer.ParentSpan))
  )

/**
 * Coalesced reads over a map of their own; `maxBatch` callers a batch at most (default 1024).
 * `nextTurn` is what a batch waits for before its read begins (default: the end of this turn of the
 * event loop, `nextTurn`; tests pass one they release themselves). `waitingGauge`, when given, follows
 * the callers waiting, over every key (raised once a caller has joined its batch, lowered as it leaves).
 */
export const make = <A, E>(
  options: {
    readonly maxBatch?: number
    readonly nextTurn?: Effect.Effect<void>
    readonly waitingGauge?: Metric.Metric.Gauge<number>
  } = {}
): CoalescedReads<A, E> => {
  const gauge = options.waitingGauge
  const maxBatch = Math.max(1, options.maxBatch ?? defaultMaxBatch)
  const turn = options.nextTurn ?? nextTurn
  const entries = new Map<string, Entry<A, E>>()
  /** The gauge raised as a caller starts waiting for a read of its page, lowered as it stops. */
  const raised = gauge === undefined ? Effect.void : Metric.modify(gauge, 1)
  const lowered = gauge === undefined ? Effect.void : Metric.modify(gauge, -1)

  const batchOf = (read: Effect.Effect<A, E>, opener: FiberRefs.FiberRefs): Batch<A, E> => ({
    answer: Deferred.unsafeMake<A, E>(FiberId.none),
    read,
    opener,
    fiber: undefined,
    started: false,
    joined: 0,
    waiting: 0
  })

  /**
   * Runs `batch` in a fiber of its own, with its opener's services (`detached`), and hands every caller
   * the read's exit; then starts the key's next batch, or removes the key's entry. The exit is handed
   * over and the next batch started even if that fiber is interrupted (every caller went away, or
   * shutdown).
   */
  const start = (
    key: string,
    entry: Entry<A, E>,
    batch: Batch<A, E>,
    byOpener: boolean
  ): Effect.Effect<void> =>
    Effect.map(
      Effect.forkDaemon(
        // A fiber forked by the opener has its values already and its turn is over (the opener waited
        // for it); one forked at the last batch's end waits for its turn and takes the values over.
        (byOpener ? Effect.void : Effect.zipRight(turn, Effect.setFiberRefs(batch.opener))).pipe(
          Effect.zipRight(
            Effect.suspend(() => {
              batch.started = true
              // Every caller went away while the batch waited for its turn: nobody to read for.
              return batch.waiting === 0 ? Effect.interrupt : detached(batch.read, batch.joined)
            })
          ),
          Effect.onExit((exit) =>
            Effect.zipRight(
              Deferred.done(batch.answer, exit),
              Effect.suspend(() => finish(key, entry))
            )
          ),
          // The callers have the exit; the fiber's own end is nobody's to report.
          Effect.exit,
          // Forked from an uninterruptible region (a caller's join, the last batch's end), whose flags a
          // fiber inherits: the read itself stays interruptible, so its own timeouts and races work.
          Effect.interruptible
        )
      ),
      (fiber) => {
        batch.fiber = fiber
      }
    )

  const finish = (key: string, entry: Entry<A, E>): Effect.Effect<void> => {
    let next = entry.next
    entry.next = undefined
    // A batch whose callers all went away before its turn is dropped unread.
    if (next !== undefined && next.waiting === 0) next = undefined
    if (next === undefined) {
      if (entries.get(key) === entry) entries.delete(key)
      return Effect.void
    }
    entry.current = next
    return start(key, entry, next, false)
  }

  /**
   * The batch a caller joins, opening one when needed (`opened`: the caller is its opener), or none when
   * it is full.
   */
  const join = (
    key: string,
    read: Effect.Effect<A, E>,
    caller: FiberRefs.FiberRefs
  ): { readonly batch: Batch<A, E>; readonly opened: Entry<A, E> | undefined } | undefined => {
    const entry = entries.get(key)
    if (entry === undefined) {
      const batch = batchOf(read, caller)
      const opened: Entry<A, E> = { current: batch, next: undefined }
      entries.set(key, opened)
      return { batch, opened }
    }
    if (!entry.current.started)
      return entry.current.joined < maxBatch ? { batch: entry.current, opened: undefined } : undefined
    if (entry.next === undefined) entry.next = batchOf(read, caller)
    return entry.next.joined < maxBatch ? { batch: entry.next, opened: undefined } : undefined
  }

  /**
   * The opener of a batch waits for its turn in its own fiber. Nobody joined meanwhile (the usual case
   * on users' traffic, where identical requests at once are rare): it reads alone in its own fiber, as
   * without coalescing, at the cost of a turn and a map entry (no fiber forked, no answer to hand
   * over); whoever asks while it reads joins the key's next batch. Others joined: the batch's read is
   * forked for them all (`start`) and the opener waits for its answer like the others. An opener that
   * goes away during its turn starts the batch for those who joined, or drops it.
   */
  const open = (
    key: string,
    entry: Entry<A, E>,
    batch: Batch<A, E>,
    restore: <X, Y, Z>(effect: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>
  ): Effect.Effect<A, E> =>
    // the opener waits for its batch's read like any caller (the gauge counts it), alone or not
    Effect.zipRight(
      raised,
      restore(turn).pipe(
        Effect.onInterrupt(() =>
          Effect.suspend(() => {
            batch.waiting--
            return Effect.zipRight(
              lowered,
              batch.waiting > 0 ? start(key, entry, batch, false) : finish(key, entry)
            )
          })
        ),
        Effect.zipRight(
          Effect.suspend(() => {
            batch.started = true
            // Only the opener still waits (nobody joined, or those who did went away).
            if (batch.waiting === 1)
              return restore(batch.read).pipe(
                Effect.ensuring(
                  Effect.suspend(() => {
                    batch.waiting--
                    return Effect.zipRight(lowered, finish(key, entry))
                  })
                )
              )
            return Effect.zipRight(start(key, entry, batch, true), answerOf(batch, restore, false))
          })
        )
      )
    )

  /** A caller's wait for its batch's answer; the read is interrupted when its last caller goes away. */
  const answerOf = (
    batch: Batch<A, E>,
    restore: <X, Y, Z>(effect: Effect.Effect<X, Y, Z>) => Effect.Effect<X, Y, Z>,
    // false for the opener: the gauge counted it when it opened the batch
    count = true
  ): Effect.Effect<A, E> => {
    const answer = restore(Deferred.await(batch.answer)).pipe(
      Effect.ensuring(
        Effect.suspend(() => {
          batch.waiting--
          // The last caller went away from a read under way: nobody is left to answer.
          if (batch.waiting > 0 || !batch.started || batch.fiber === undefined) return lowered
          const fiber = batch.fiber
          return Effect.zipRight(
            lowered,
            Effect.flatMap(Deferred.isDone(batch.answer), (answered) =>
              answered ? Effect.void : Fiber.interruptFork(fiber)
            )
          )
        })
      )
    )
    return count ? Effect.zipRight(raised, answer) : answer
  }

  const read = (key: string, read: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.withFiberRuntime<A, E>((fiber) => {
        const joined = join(key, read, fiber.getFiberRefs())
        // The batch this caller would join is full: it reads alone, as it would without coalescing.
        if (joined === undefined) return restore(read)
        const { batch, opened } = joined
        batch.joined++
        batch.waiting++
        return opened === undefined ? answerOf(batch, restore) : open(key, opened, batch, restore)
      })
    )

  const waiting = (key: string): number => {
    const entry = entries.get(key)
    return entry === undefined ? 0 : entry.current.waiting + (entry.next?.waiting ?? 0)
  }

  return { read, keys: () => entries.size, waiting }
}
