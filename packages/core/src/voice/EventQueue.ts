import { Cause, Chunk, Effect, Exit, Option, type Scope, Stream } from "effect"

/**
 * The events of one socket (a carrier's media stream, a browser's, a recogniser's), from its listener to
 * the call's fibers. The listener offers without a step of Effect (it is plain code); a reader takes
 * without a fiber or a queue's guards between an event and its handler (`runForEach`): a media frame
 * comes every 20 ms, both ways, every live call, and `Queue.take` on an empty queue (a deferred, an
 * interruption guard, a fiber woken with the value) was a fair share of a call's processor time.
 *
 * A reader that waits is woken, never handed an event: an event leaves the queue only when a running
 * reader takes it. So a reader interrupted while it waits (a voice loop ending) loses nothing, and the
 * next reader (the recording's own, after the loop) reads on from the first event the loop did not take.
 * The end, or the failure, is offered once (later ones are ignored) and stays: every read after the last
 * event sees it. The queue is unbounded: its producers bound it (`SocketGuards`: too many unread events
 * end the session).
 */
export interface EventQueue<A, E> {
  /** Adds an event for the readers (ignored once the queue ended). */
  readonly offer: (event: A) => void
  /** Ends the events after those offered (the first end or failure is the one kept). */
  readonly end: () => void
  /** Fails the events after those offered (the first end or failure is the one kept). */
  readonly fail: (error: E) => void
  /** `fail` with a whole cause (a defect, an interruption: what a stream read into the queue ended with). */
  readonly failCause: (cause: Cause.Cause<E>) => void
  /** Events offered and not read yet. */
  readonly size: () => number
  /** Whether the end or a failure was offered. */
  readonly isDone: () => boolean
  /** The events, as a stream: `runForEach` reads it without a stream's steps. */
  readonly stream: Stream.Stream<A, E>
}

/** What a reader needs of a queue. */
interface Source<A, E> {
  /** The next event, or `none` when there is none yet. */
  readonly take: () => A | typeof none
  /** The queue's end once every event was read: an exit to return; null while it goes on. */
  readonly done: () => Exit.Exit<void, E> | null
  /** Succeeds once there is an event or the end (at once when there is), or sooner: a reader looks again. */
  readonly wait: Effect.Effect<void>
}

/** A stream made here: its source, and what runs for each event before the reader's handler. */
interface Registered<A, E> {
  readonly source: Source<A, E>
  readonly before: ((event: A) => Effect.Effect<void>) | null
}

const none: unique symbol = Symbol("EventQueue.none")

const registry = new WeakMap<object, Registered<unknown, unknown>>()

/** The compaction threshold: a queue read far behind its producer drops what it read now and then. */
const compactAfter = 1024

/** The most waiters kept; past it, all are woken (a woken reader that finds nothing waits again). */
const maxWaiters = 64

export const make = <A, E>(): EventQueue<A, E> => {
  let items: Array<A | undefined> = []
  let head = 0
  let done: Exit.Exit<void, E> | null = null
  let waiters: Array<() => void> = []
  const wake = () => {
    if (waiters.length === 0) return
    const woken = waiters
    waiters = []
    for (const resume of woken) resume()
  }
  const finish = (exit: Exit.Exit<void, E>) => {
    if (done !== null) return
    done = exit
    wake()
  }
  const source: Source<A, E> = {
    take: () => {
      if (head === items.length) return none
      const event = items[head] as A
      items[head] = undefined
      head++
      if (head === items.length) {
        items.length = 0
        head = 0
      } else if (head >= compactAfter) {
        items = items.slice(head)
        head = 0
      }
      return event
    },
    done: () => (head === items.length ? done : null),
    // No canceler: an `Effect.async` with one is wrapped in an interruption handler (a mask, a match and
    // the handler: ~7 operations on every wait, ~400 a call). A reader interrupted while it waits leaves its
    // waiter here; waking it later does nothing (its wait was already resumed by the interruption), and a
    // wake clears it. Waiters are few (one reader at a time); should stale ones pile up, they are woken.
    wait: Effect.async<void>((resume) => {
      if (head < items.length || done !== null) return resume(Effect.void)
      if (waiters.length >= maxWaiters) wake()
      waiters.push(() => resume(Effect.void))
    })
  }
  return {
    offer: (event) => {
      if (done !== null) return
      items.push(event)
      wake()
    },
    end: () => finish(Exit.void),
    fail: (error) => finish(Exit.fail(error)),
    failCause: (cause) => finish(Exit.failCause(cause)),
    size: () => items.length - head,
    isDone: () => done !== null,
    stream: streamOf(source, null)
  }
}

/** A stream of `source`'s events, registered for `runForEach`; `before` runs for each event first. */
const streamOf = <A, E>(
  source: Source<A, E>,
  before: ((event: A) => Effect.Effect<void>) | null
): Stream.Stream<A, E> => {
  /** Every event there is (at least one), the end, or a wait for either. */
  const pull: Effect.Effect<Chunk.Chunk<A>, Option.Option<E>> = Effect.suspend(() => {
    const events: Array<A> = []
    for (let event = source.take(); event !== none; event = source.take()) events.push(event)
    if (events.length > 0) {
      const chunk = Chunk.unsafeFromArray(events)
      return before === null ? Effect.succeed(chunk) : Effect.as(Effect.forEach(events, before), chunk)
    }
    const exit = source.done()
    if (exit === null) return Effect.zipRight(source.wait, pull)
    return Exit.isSuccess(exit)
      ? Effect.fail(Option.none())
      : Effect.failCause(Cause.map(exit.cause, Option.some))
  })
  const stream = Stream.repeatEffectChunkOption(pull)
  registry.set(stream, { source, before } as Registered<unknown, unknown>)
  return stream
}

/**
 * A view of `stream`'s events (a stream of this module's) with `before` run for each event, in order,
 * before whoever reads the view sees it: a call's recording of the caller's audio, in the loop's reader,
 * with no fiber between. The view and the stream read the same events (one reader at a time: the loop,
 * then the recording's own). Null for a stream not of this module.
 */
export const tapped = <A, E>(
  stream: Stream.Stream<A, E>,
  before: (event: A) => Effect.Effect<void>
): Stream.Stream<A, E> | null => {
  const registered = registry.get(stream) as Registered<A, E> | undefined
  if (registered === undefined) return null
  const earlier = registered.before
  return streamOf(
    registered.source,
    earlier === null ? before : (event) => Effect.zipRight(earlier(event), before(event))
  )
}

/** Whether `stream` is one of this module's (read by `runForEach` straight from its queue). */
export const isEventStream = (stream: Stream.Stream<unknown, unknown>): boolean => registry.has(stream)

/**
 * `Stream.runForEach` for a stream of this module: for each event, its `before` then `f`, until the end
 * (or the failure, which is the effect's); between two events that are already there, no step but the
 * handlers'. Any other stream is run by `Stream.runForEach`.
 */
export const runForEach = <A, E, E2, R>(
  stream: Stream.Stream<A, E>,
  f: (event: A) => Effect.Effect<unknown, E2, R>
): Effect.Effect<void, E | E2, R> => {
  const registered = registry.get(stream) as Registered<A, E> | undefined
  if (registered === undefined) return Stream.runForEach(stream, f)
  const { before, source } = registered
  const handle =
    before === null
      ? f
      : (event: A) => {
          // a step with nothing to do (`Effect.void` itself: a frame that fills no recorded block) is skipped
          const step = before(event)
          return step === Effect.void ? f(event) : Effect.zipRight(step, f(event))
        }
  const next: Effect.Effect<void, E | E2, R> = Effect.suspend(() => {
    const event = source.take()
    if (event !== none) return Effect.zipRight(handle(event), next)
    const exit = source.done()
    return exit === null ? Effect.zipRight(source.wait, next) : exit
  })
  return next
}

/**
 * `stream`'s events as a stream of this module: the stream itself when it is one (nothing runs), else a
 * fiber in the scope reads it into a new queue (its end and its failure too).
 */
export const fromStream = <A, E>(
  stream: Stream.Stream<A, E>
): Effect.Effect<Stream.Stream<A, E>, never, Scope.Scope> => {
  if (registry.has(stream)) return Effect.succeed(stream)
  return Effect.gen(function* () {
    const queue = make<A, E>()
    yield* Stream.runForEach(stream, (event) => Effect.sync(() => queue.offer(event))).pipe(
      Effect.onExit((exit) =>
        Effect.sync(() => (Exit.isSuccess(exit) ? queue.end() : queue.failCause(exit.cause)))
      ),
      // its end is the queue's
      Effect.exit,
      Effect.forkScoped
    )
    return queue.stream
  })
}
