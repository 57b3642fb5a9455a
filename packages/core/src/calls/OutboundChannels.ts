import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"

/** One outbound channel held by a live call. */
export const ChannelReservation = Schema.Struct({
  id: Schema.String,
  organization_id: OrganizationId,
  reserved_at: Schema.DateFromSelf,
  /** When the channel is taken back even if the call never reported its end (max duration + grace). */
  expires_at: Schema.DateFromSelf,
  /** When the call is expected to end, if anything knows; used to tell callers when to retry. */
  expected_release_at: Schema.NullOr(Schema.DateFromSelf)
})
export type ChannelReservation = typeof ChannelReservation.Type

/** Retry-After bounds and the figure used when no live call says when it will end. */
export const retryAfterBounds = { min: 1, max: 300, unknown: 30 } as const

/** Extra time a call gets past its agent's maximum duration before its channel is reclaimed. */
export const reclaimGraceSeconds = 60

/** How long a call may ring unanswered: a carrier is dialed with it (Twilio's `Timeout`, its default too). */
export const ringTimeoutSeconds = 60

/**
 * The time a call may take before it is answered, which its maximum duration does not count (a carrier
 * counts that from the answer: Twilio's `TimeLimit`): its ring timeout, and as long again for the carrier
 * to set it up (its queue, the dial's own round trip).
 */
export const beforeAnswerSeconds = 2 * ringTimeoutSeconds

/**
 * The longest a call's channel is held, from its placing: the time before the answer, the agent's
 * maximum duration, and the grace. A live call is reclaimed then (`OverdueCalls`), not before: a call
 * that rang long is still talking up to its maximum duration.
 */
export const holdSeconds = (maxCallDurationSeconds: number): number =>
  beforeAnswerSeconds + maxCallDurationSeconds + reclaimGraceSeconds

export type ChannelDecision =
  { readonly _tag: "Granted" } | { readonly _tag: "Busy"; readonly retryAfterSeconds: number }

/** Reservations still holding a channel at `now`: expired ones are free again. */
export const live = (
  reservations: ReadonlyArray<ChannelReservation>,
  now: Date
): ReadonlyArray<ChannelReservation> => reservations.filter((r) => r.expires_at.getTime() > now.getTime())

/**
 * When a refused caller should retry: the seconds until the first live call is expected to end, clamped
 * to 1..300. When no live call says when it will end, 30 s (or sooner, if a channel is reclaimed sooner).
 */
export const retryAfterSeconds = (held: ReadonlyArray<ChannelReservation>, now: Date): number => {
  const secondsUntil = (t: number) => Math.ceil((t - now.getTime()) / 1000)
  const clamp = (s: number) => Math.min(retryAfterBounds.max, Math.max(retryAfterBounds.min, s))
  const firstReclaim = Math.min(...held.map((r) => r.expires_at.getTime()))
  const expected = held.flatMap((r) =>
    r.expected_release_at === null ? [] : [r.expected_release_at.getTime()]
  )
  if (expected.length === 0) {
    return clamp(Math.min(retryAfterBounds.unknown, secondsUntil(firstReclaim)))
  }
  return clamp(secondsUntil(Math.min(firstReclaim, ...expected)))
}

/** Grants a channel while fewer than `capacity` calls hold one; otherwise says when to retry. */
export const decide = (
  reservations: ReadonlyArray<ChannelReservation>,
  capacity: number,
  now: Date
): ChannelDecision => {
  const held = live(reservations, now)
  return held.length < capacity
    ? { _tag: "Granted" }
    : { _tag: "Busy", retryAfterSeconds: retryAfterSeconds(held, now) }
}

/** What a batch of reservations got: the first `granted` of them hold a channel; `retryAfterSeconds` for the rest. */
export interface BatchDecision {
  readonly granted: number
  /** When the first reservation not granted should retry; null when all were granted. */
  readonly retryAfterSeconds: number | null
}

/**
 * `decide` for `wanted` reservations at once, as if each asked in turn: the first ones get the free
 * channels, and the first refused hears the Retry-After it would have heard after them.
 */
export const decideBatch = (
  reservations: ReadonlyArray<ChannelReservation>,
  capacity: number,
  now: Date,
  batch: ReadonlyArray<ChannelReservation>
): BatchDecision => {
  const held = live(reservations, now)
  const granted = Math.max(0, Math.min(batch.length, capacity - held.length))
  return {
    granted,
    retryAfterSeconds:
      granted === batch.length ? null : retryAfterSeconds([...held, ...batch.slice(0, granted)], now)
  }
}
