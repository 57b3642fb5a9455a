import { Clock, Context, Effect, Layer, Option } from "effect"
import { AgentStore } from "../agents/AgentStore.js"
import type { Run } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { CallEvents } from "./CallEvents.js"
import * as OverdueCalls from "./OverdueCalls.js"

/** The most live calls one pass looks at. */
export const batchSize = 500

/** The maximum duration assumed when a run's agent cannot be found: the longest an agent may allow. */
export const fallbackMaxCallDurationSeconds = 4 * 60 * 60

/** The log line a reclaimed call gets, so its record says why it failed. */
export const reclaimMessage = "The call did not report its end within the agent's maximum duration; reclaimed"

/**
 * Takes back calls that outlived their agent's maximum call duration plus a grace
 * (`OverdueCalls`): each ends `failed` through `CallEvents`, like a runtime's own end report, so its
 * channel is released and its ledger line written (0 s: no talk time was ever reported).
 */
export class CallReclaim extends Context.Tag("@voice-agent-platform/core/CallReclaim")<
  CallReclaim,
  {
    /** One bounded pass; answers the runs it ended. */
    readonly reclaim: Effect.Effect<ReadonlyArray<RunId>>
  }
>() {}

export const layer = Layer.effect(
  CallReclaim,
  Effect.gen(function* () {
    const runs = yield* RunStore
    const agents = yield* AgentStore
    const events = yield* CallEvents

    const maxDuration = (run: Run) =>
      Effect.map(agents.find(run.organization_id, { _tag: "Number", id: run.workflow_id }), (agent) =>
        Option.match(agent, {
          onNone: () => fallbackMaxCallDurationSeconds,
          onSome: (a) => a.workflow_configurations.max_call_duration_seconds
        })
      )

    const end = (run: Run) =>
      events
        .report(run.organization_id, run.workflow_run_id, {
          type: "log",
          level: "error",
          message: reclaimMessage
        })
        .pipe(
          Effect.zipRight(
            events.report(run.organization_id, run.workflow_run_id, {
              type: "ended",
              status: "failed",
              duration_seconds: 0
            })
          ),
          Effect.as(true),
          // The runtime may have ended the call (or the run was erased) since it was read: nothing to take back.
          Effect.catchAll(() => Effect.succeed(false))
        )

    return CallReclaim.of({
      reclaim: Effect.gen(function* () {
        const now = new Date(yield* Clock.currentTimeMillis)
        const candidates = yield* runs.liveCreatedBy(OverdueCalls.candidatesCreatedBy(now), batchSize)
        const reclaimed: Array<RunId> = []
        for (const run of candidates) {
          if (!OverdueCalls.isOverdue(run, yield* maxDuration(run), now)) continue
          if (yield* end(run)) reclaimed.push(run.workflow_run_id)
        }
        return reclaimed
      }).pipe(Effect.withSpan("CallReclaim.reclaim"))
    })
  })
)
