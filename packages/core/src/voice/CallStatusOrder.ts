import type { RunStatus } from "../runs/Run.js"
import type { CarrierCallStatus } from "./Carrier.js"

/**
 * How a carrier's status callbacks move a run. Carriers deliver callbacks at least once and in any order
 * (Twilio numbers them with `SequenceNumber`), so the rule is a monotone one: a run only ever moves
 * forward, `queued` → `ringing` → `in_progress` → one final status (`completed`, `busy`, `no_answer`,
 * `failed`, `canceled`), and a callback that would move it back or sideways changes nothing. A final
 * status is reached once, so the call's end (its channel freed, its files saved) happens exactly once
 * however often the callback that ends it comes. Pure: the caller keeps the state (with the run).
 */

/** What the rule remembers of a run: its status and the highest `SequenceNumber` seen (null: none yet). */
export interface State {
  readonly status: RunStatus
  readonly sequence: number | null
}

/** The part of a callback the rule reads. */
export interface Callback {
  readonly call_status: CarrierCallStatus
  readonly sequence: number
}

/** What a callback does: the state after it, and the status the run moves to (null: it does not move). */
export interface Step {
  readonly state: State
  readonly move: RunStatus | null
  /** True when this callback ended the call (the move is final): free its channel now, and only now. */
  readonly ended: boolean
}

/** A run's state before any callback: queued, nothing seen. */
export const initial: State = { status: "queued", sequence: null }

/** The run status a carrier status asks for; null for the carrier's own early ones (queued, initiated). */
export const runStatusOf = (status: CarrierCallStatus): RunStatus | null => {
  switch (status) {
    case "queued":
    case "initiated":
      return null
    case "ringing":
      return "ringing"
    case "in-progress":
      return "in_progress"
    case "completed":
      return "completed"
    case "busy":
      return "busy"
    case "failed":
      return "failed"
    case "no-answer":
      return "no_answer"
    case "canceled":
      return "canceled"
  }
}

/** How far along a status is: a run moves only to a higher rank. Every final status ranks the same. */
export const rank = (status: RunStatus): number => {
  switch (status) {
    case "initialized":
    case "queued":
      return 0
    case "ringing":
      return 1
    case "in_progress":
      return 2
    case "completed":
    case "busy":
    case "no_answer":
    case "failed":
    case "canceled":
      return 3
  }
}

/** The step `callback` makes from `state`. */
export const apply = (state: State, callback: Callback): Step => {
  const sequence = state.sequence === null ? callback.sequence : Math.max(state.sequence, callback.sequence)
  const target = runStatusOf(callback.call_status)
  if (target === null || rank(target) <= rank(state.status)) {
    return { state: { status: state.status, sequence }, move: null, ended: false }
  }
  return { state: { status: target, sequence }, move: target, ended: rank(target) === 3 }
}

/** The steps of several callbacks in the order they arrived, and the state after them. */
export const applyAll = (
  state: State,
  callbacks: ReadonlyArray<Callback>
): { readonly state: State; readonly moves: ReadonlyArray<RunStatus> } => {
  let current = state
  const moves: Array<RunStatus> = []
  for (const callback of callbacks) {
    const step = apply(current, callback)
    current = step.state
    if (step.move !== null) moves.push(step.move)
  }
  return { state: current, moves }
}
