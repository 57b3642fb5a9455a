import type { MinorUnits } from "../money/Money.js"
import type { ContactCounts, ContactStatus } from "./Campaign.js"

/** A change to a campaign's kept totals, applied by the store in the transaction that moves the contacts. */
export interface TallyDelta {
  readonly counts: Readonly<Record<ContactStatus, number>>
  readonly attempts: number
  readonly duration_seconds: number
  readonly cost: number
}

export const zeroCounts: ContactCounts = { pending: 0, in_progress: 0, completed: 0, failed: 0, skipped: 0 }

export const none: TallyDelta = { counts: zeroCounts, attempts: 0, duration_seconds: 0, cost: 0 }

/** `n` contacts moving from `from` (null: new) to `to` (null: removed). */
export const move = (from: ContactStatus | null, to: ContactStatus | null, n = 1): TallyDelta => {
  const counts = { ...zeroCounts }
  if (from !== null) counts[from] -= n
  if (to !== null) counts[to] += n
  return { ...none, counts }
}

/** One attempt made (a run created for a contact). */
export const attemptMade = (delta: TallyDelta): TallyDelta => ({ ...delta, attempts: delta.attempts + 1 })

/** The talk time and cost of an attempt that ended. */
export const attemptEnded = (
  delta: TallyDelta,
  durationSeconds: number,
  cost: MinorUnits | number
): TallyDelta => ({
  ...delta,
  duration_seconds: delta.duration_seconds + durationSeconds,
  cost: delta.cost + cost
})

/** Two changes as one. */
export const combine = (a: TallyDelta, b: TallyDelta): TallyDelta => ({
  counts: {
    pending: a.counts.pending + b.counts.pending,
    in_progress: a.counts.in_progress + b.counts.in_progress,
    completed: a.counts.completed + b.counts.completed,
    failed: a.counts.failed + b.counts.failed,
    skipped: a.counts.skipped + b.counts.skipped
  },
  attempts: a.attempts + b.attempts,
  duration_seconds: a.duration_seconds + b.duration_seconds,
  cost: a.cost + b.cost
})

/** Contacts the campaign holds in all. */
export const total = (counts: ContactCounts): number =>
  counts.pending + counts.in_progress + counts.completed + counts.failed + counts.skipped

/** Every contact is final: none pending nor in progress. */
export const allFinal = (counts: ContactCounts): boolean => counts.pending === 0 && counts.in_progress === 0

/** True for a delta that changes nothing: writing it would only cost a row update. */
export const isNone = (delta: TallyDelta): boolean =>
  Object.values(delta.counts).every((n) => n === 0) &&
  delta.attempts === 0 &&
  delta.duration_seconds === 0 &&
  delta.cost === 0
