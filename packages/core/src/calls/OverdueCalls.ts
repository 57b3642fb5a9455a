import type { Run } from "../runs/Run.js"
import { isLive } from "../runs/Run.js"
import { beforeAnswerSeconds, holdSeconds, reclaimGraceSeconds } from "./OutboundChannels.js"

/**
 * When a call that never reported its end is taken back: created_at + the time before the answer
 * (ringing, the carrier's queue) + max duration + grace (`holdSeconds`), when its channel hold expires.
 */
export const reclaimAt = (createdAt: Date, maxCallDurationSeconds: number): Date =>
  new Date(createdAt.getTime() + holdSeconds(maxCallDurationSeconds) * 1000)

/**
 * True when a live run has outlived the time before the answer, its agent's maximum duration and the grace. At the instant itself
 * it is overdue, as its channel reservation (which expires then) is free again.
 */
export const isOverdue = (
  run: Pick<Run, "status" | "created_at">,
  maxCallDurationSeconds: number,
  now: Date
): boolean =>
  isLive(run.status) && reclaimAt(run.created_at, maxCallDurationSeconds).getTime() <= now.getTime()

/** No live run created after this instant can be overdue yet, whatever its agent's maximum duration. */
export const candidatesCreatedBy = (now: Date): Date =>
  new Date(now.getTime() - (beforeAnswerSeconds + reclaimGraceSeconds) * 1000)
