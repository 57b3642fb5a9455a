import type { RunStatus } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"

/**
 * How a call event moves a run's status. A call only moves forward: `initialized`/`queued` → `ringing` →
 * `in_progress` → a final status, steps may be skipped (a call answered at once never rang; a busy line
 * ends a queued call). Voice runtimes retry and reorder their reports, so an event that would move the
 * status back or repeat it (ringing after the answer, a second answer) is ignored, not an error. After the
 * end nothing changes any more: every event about an ended call is refused.
 */

/** Where a status stands in a call's life; every final status is last. */
export const rank = (status: RunStatus): number => {
  switch (status) {
    case "initialized":
      return 0
    case "queued":
      return 1
    case "ringing":
      return 2
    case "in_progress":
      return 3
    case "completed":
    case "busy":
    case "no_answer":
    case "failed":
    case "canceled":
      return 4
  }
}

/** The verdict on one event. */
export type Verdict =
  /** Apply the event; `status` is the run's status afterwards. */
  | { readonly _tag: "Apply"; readonly status: RunStatus }
  /** A repeated or out-of-order status report: change nothing. */
  | { readonly _tag: "Stale" }
  /** The call has ended: the event is refused. */
  | { readonly _tag: "AfterEnd" }

/**
 * The verdict on an event for a run in `current`: `target` is the status the event reports (`ringing`,
 * `in_progress`, a final one), or null for an event that carries content only (a fragment, gathered data,
 * an SMS, a log line, the recording), which applies to any live run without moving it.
 */
export const decide = (current: RunStatus, target: RunStatus | null): Verdict => {
  if (isFinal(current)) return { _tag: "AfterEnd" }
  if (target === null) return { _tag: "Apply", status: current }
  return rank(target) > rank(current) ? { _tag: "Apply", status: target } : { _tag: "Stale" }
}
