import { Effect, Queue, Stream, Take } from "effect"

/**
 * The stream of a queue of `Take`s (what a socket's listener offers: values, then an end or a failure),
 * read one take at a time: `Stream.flattenTake(Stream.fromQueue(queue))` read the same, through two more
 * stream stages, about 5 µs more a take in a loop where each take arrives alone (a media frame every
 * 20 ms, both ways, every live call). A shut-down queue ends the stream, as `Stream.fromQueue` does.
 */
export const fromQueue = <A, E>(queue: Queue.Dequeue<Take.Take<A, E>>): Stream.Stream<A, E> =>
  Stream.repeatEffectChunkOption(
    Queue.take(queue).pipe(
      Effect.catchAllCause((cause) =>
        Effect.flatMap(Queue.isShutdown(queue), (down) =>
          down ? Effect.succeed(Take.end) : Effect.failCause(cause)
        )
      ),
      Effect.flatMap(Take.done)
    )
  )
