import { Cause, Clock, Effect, Option, Queue, type Scope, Stream, SubscriptionRef } from "effect"
import { backgroundSpan, untraced } from "../observability/BackgroundSpans.js"
import type { Document } from "./Document.js"
import type { DocumentStore } from "./DocumentStore.js"

/** The knowledge base's background processors, started by `start`. */
export interface DocumentProcessors {
  /** Tells a processor there is a new document; a full queue means one will look anyway. */
  readonly wake: Effect.Effect<void>
  /** Waits until the processors have handled every wake-up so far. */
  readonly awaitIdle: Effect.Effect<void>
}

/** What the processors need: the store to claim from, how many run at once, and how one document is processed. */
export interface ProcessorSettings<E> {
  readonly store: DocumentStore["Type"]
  readonly concurrency: number
  /** A document left `processing` for longer than this is claimed again (its processor died). */
  readonly staleAfterMillis: number
  /** Processes a document already marked `processing`. */
  readonly run: (document: Document) => Effect.Effect<unknown, E>
}

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/**
 * Background processing: `concurrency` processors, each taking the oldest unfinished document from
 * the store until none is left, then waiting to be woken (an upload, or `processPending`). The
 * wake-ups are a dropping queue of `concurrency` places: when it is full every processor already
 * has a drain ahead of it that will see the new document, so nothing is lost and memory stays
 * bounded however many uploads arrive. `outstanding` counts the drains still owed (each processor's
 * first one, and one per kept wake-up), for `awaitIdle`. The processors live as long as the scope.
 */
export const start = <E>({
  concurrency,
  run,
  staleAfterMillis,
  store
}: ProcessorSettings<E>): Effect.Effect<DocumentProcessors, never, Scope.Scope> =>
  Effect.gen(function* () {
    const wakeUps = yield* Queue.dropping<void>(concurrency)
    const outstanding = yield* SubscriptionRef.make(concurrency)

    /** One document, if any is waiting: claimed, processed, or put back `pending` when interrupted. */
    const processNext = Effect.gen(function* () {
      const at = yield* now
      // polled untraced: only a claimed document is a trace (`DocumentProcessors.process`)
      const claimed = yield* untraced(store.claimNext(at, new Date(at.getTime() - staleAfterMillis)))
      if (Option.isNone(claimed)) return false
      yield* run(claimed.value).pipe(
        backgroundSpan("DocumentProcessors.process", {
          document_id: claimed.value.id,
          organization_id: claimed.value.organization_id
        }),
        // a shutdown leaves the document for the next start, not `processing` until it goes stale
        Effect.onInterrupt(() =>
          Effect.flatMap(now, (at) =>
            store.update(
              claimed.value.organization_id,
              claimed.value.id,
              { processing_status: "pending" },
              at
            )
          )
        )
      )
      return true
    })
    // A store failure (a lost database) ends this drain, not the processor: the documents stay
    // `pending` for the next wake-up.
    const drain = Effect.repeat(processNext, { while: (processed) => processed }).pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logError(
              "Knowledge-base processing stopped; pending documents wait for the next pass",
              cause
            )
      )
    )
    const settle = SubscriptionRef.update(outstanding, (n) => n - 1)
    const processor = Effect.gen(function* () {
      yield* drain
      yield* settle
      for (;;) {
        yield* Queue.take(wakeUps)
        yield* drain
        yield* settle
      }
    })
    // The processors live as long as the scope: closing it interrupts them.
    yield* Effect.forkScoped(
      Effect.all(
        Array.from({ length: concurrency }, () => processor),
        { concurrency }
      )
    )

    const wake = Effect.gen(function* () {
      yield* SubscriptionRef.update(outstanding, (n) => n + 1)
      if (!(yield* Queue.offer(wakeUps, undefined))) yield* settle
    })
    return {
      wake,
      awaitIdle: outstanding.changes.pipe(
        Stream.takeUntil((n) => n <= 0),
        Stream.runDrain
      )
    }
  })
