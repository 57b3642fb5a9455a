import { Effect } from "effect"

/**
 * Tracing for background work (the dialer, the webhook dispatcher, housekeeping, document processing):
 * a polling read that finds nothing must export nothing, or an idle server sends a root trace per poll.
 * The poll runs `untraced` (its SQL spans are no-ops); only when it found work does the work run in a
 * root span named `Service.operation` (`CampaignDialer.round`), with its statements beneath.
 */
export const untraced = <A, E, R>(poll: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withTracerEnabled(poll, false)

/** The span of one background operation that found work: a root of its own trace, no stack trace taken. */
export const backgroundSpan =
  (name: string, attributes: Record<string, unknown> = {}) =>
  <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withSpan(work, name, { root: true, captureStackTrace: false, attributes })
