import { Clock, Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import type { RunStore } from "../runs/RunStore.js"
import type { CallEvent } from "./CallEvent.js"
import type { CallFragmentStore } from "./CallFragmentStore.js"

/** The events a live run takes in one step of its store. */
export type LiveRunEvent = Extract<CallEvent, { readonly type: "fragment" | "log" }>

/**
 * A live call's most frequent events — a transcript fragment, a log line (a turn's latencies) — each in
 * one step of the store that holds the run while it is not final: one statement, not a transaction's four
 * (begin, the run read and held, the write, commit), a dozen or two times a call. Answers the run (as read
 * for a fragment, as written for a line); none when the run is missing or final, for the event's whole
 * path (`CallEvents`) to say which. Events of one call still never interleave: the step holds the run as
 * the whole path's transaction does.
 */
export const make =
  (runs: RunStore["Type"], fragments: CallFragmentStore["Type"]) =>
  (organizationId: OrganizationId, runId: RunId, event: LiveRunEvent): Effect.Effect<Option.Option<Run>> =>
    event.type === "fragment"
      ? fragments.appendWhileLive(organizationId, runId, [
          { role: event.role, text: event.text, timestamp: event.timestamp }
        ])
      : Effect.flatMap(Clock.currentTimeMillis, (now) =>
          runs.appendLogWhileLive(organizationId, runId, {
            timestamp: new Date(now),
            level: event.level,
            message: event.message
          })
        )
