import { Chunk, Effect, Queue, Stream, Take } from "effect"
import * as EventQueue from "./EventQueue.js"

/** The queue each stream of `fromQueue` reads, for `runForEach` to read it directly. */
const queues = new WeakMap<object, Queue.Dequeue<Take.Take<unknown, unknown>>>()

/** The next take of `queue`; a shut-down queue gives the end, as `Stream.fromQueue` ends. */
const takeOf = <A, E>(queue: Queue.Dequeue<Take.Take<A, E>>): Effect.Effect<Take.Take<A, E>> =>
  Queue.take(queue).pipe(
    Effect.catchAllCause((cause) =>
      Effect.flatMap(Queue.isShutdown(queue), (down) =>
        down ? Effect.succeed(Take.end) : Effect.failCause(cause)
      )
    )
  )

/**
 * The stream of a queue of `Take`s (what a socket's listener offers: values, then an end or a failure),
 * read one take at a time: `Stream.flattenTake(Stream.fromQueue(queue))` read the same, through two more
 * stream stages, about 5 µs more a take in a loop where each take arrives alone (a media frame every
 * 20 ms, both ways, every live call). A shut-down queue ends the stream, as `Stream.fromQueue` does.
 */
export const fromQueue = <A, E>(queue: Queue.Dequeue<Take.Take<A, E>>): Stream.Stream<A, E> => {
  const stream = Stream.repeatEffectChunkOption(Effect.flatMap(takeOf(queue), Take.done))
  queues.set(stream, queue as Queue.Dequeue<Take.Take<unknown, unknown>>)
  return stream
}

/**
 * `Stream.runForEach`, reading a stream of `fromQueue` straight from its queue: a take, then `f` for each
 * of its values, until the end (or the failure, which is the effect's), with none of a stream's steps
 * between a value and `f` (for a media session's frames: the caller's 50 a second, every live call). A
 * stream of `EventQueue` is read by `EventQueue.runForEach`; any other by `Stream.runForEach`.
 */
export const runForEach = <A, E, E2, R>(
  stream: Stream.Stream<A, E>,
  f: (value: A) => Effect.Effect<unknown, E2, R>
): Effect.Effect<void, E | E2, R> => {
  if (EventQueue.isEventStream(stream)) return EventQueue.runForEach(stream, f)
  const queue = queues.get(stream) as Queue.Dequeue<Take.Take<A, E>> | undefined
  if (queue === undefined) return Stream.runForEach(stream, f)
  const next: Effect.Effect<void, E | E2, R> = Effect.flatMap(takeOf(queue), (take) =>
    Take.match(take, {
      onEnd: () => Effect.void,
      onFailure: (cause) => Effect.failCause(cause),
      onSuccess: (values) =>
        Effect.zipRight(
          // a socket's take is one value
          values.length === 1 ? f(Chunk.unsafeHead(values)) : Effect.forEach(values, f, { discard: true }),
          next
        )
    })
  )
  return next
}
