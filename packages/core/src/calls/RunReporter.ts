import { Effect } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { RunId } from "../runs/RunId.js"
import type { CallEvent, CallEvents } from "./CallEvents.js"

/**
 * Reports a run's event; an error is logged (a warning), never thrown: what a call reports after its end
 * is refused (the run is final, ended elsewhere), and nothing is left to do then but say so. Used by the
 * runtimes that report in the background (a live call, a browser session, a lost dial's look-up).
 */
export const reporter =
  (events: CallEvents["Type"], organizationId: OrganizationId, runId: RunId) =>
  (event: CallEvent): Effect.Effect<void> =>
    events.report(organizationId, runId, event).pipe(
      Effect.catchAll((error) =>
        Effect.logWarning(`run ${runId}: its ${event.type} event was refused (${error._tag})`)
      ),
      Effect.asVoid
    )
