import { Clock, Duration, Effect, Option } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { isFinal } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Carrier } from "./Carrier.js"
import { eventOf } from "./CarrierCallbacks.js"
import * as CarrierPrice from "./CarrierPrice.js"
import { CarrierTimings } from "./CarrierTimings.js"

/**
 * A call's end when its final status callback is lost. The carrier's `completed` callback ends the run
 * with the billed duration; a carrier delivers callbacks at most a few times, and one that never comes
 * would leave the run live (and unbilled) until it is reclaimed `failed`. So once a call's conversation
 * has ended (the engine hung up, transferred, or the caller hung up: the media socket closed), the call
 * is read from the carrier (`Carrier.fetchCall`) after `CarrierTimings.finalStatusCheck` (15 s) and then
 * every twice that, until the run has ended or its reclaim deadline comes. A final status read so ends
 * the run as its callback would have (status, billed duration, through `CallEvents`) with a log line
 * (`recoveredMessage`), and keeps the price it has (`CarrierPrice`). Whichever comes first, the callback
 * or the read, ends the run; `CallEvents` refuses the other, so the end happens exactly once.
 */

/** The run's log line when its end was read from the carrier, its callback not having come. */
export const recoveredMessage = (provider: string) =>
  `The carrier's final status callback did not come; the call's end was read from the carrier (${provider})`

/** The call to settle. */
export interface EndedConversation {
  readonly organization_id: OrganizationId
  readonly run_id: RunId
  readonly call_id: string
  /** When the run is reclaimed if nothing ends it (`OverdueCalls.reclaimAt`): the reads stop there. */
  readonly reclaim_at: Date
}

/** Reads the call's end from the carrier until the run has ended (see above). Never fails. */
export const settle = (call: EndedConversation) =>
  Effect.gen(function* () {
    const carrier = yield* Carrier
    const runs = yield* RunStore
    const events = yield* CallEvents
    const { finalStatusCheck } = yield* CarrierTimings
    const interval = Duration.times(finalStatusCheck, 2)
    yield* Effect.sleep(finalStatusCheck)
    for (;;) {
      const run = yield* runs.findAnyOrganization(call.run_id)
      if (Option.isNone(run) || isFinal(run.value.status)) return
      const read = yield* Effect.option(carrier.fetchCall(call.call_id))
      const event = Option.isSome(read) ? eventOf(read.value.status, read.value.duration_seconds) : null
      if (Option.isSome(read) && event?.type === "ended") {
        const outcome = yield* Effect.either(events.report(call.organization_id, call.run_id, event))
        // the callback came meanwhile: it ended the run (and follows the price itself)
        if (outcome._tag === "Left" || outcome.right._tag !== "Applied") return
        yield* CarrierPrice.appendLogOnce(
          call.organization_id,
          call.run_id,
          recoveredMessage(carrier.provider),
          recoveredMessage(carrier.provider)
        )
        return yield* read.value.price === null
          ? CarrierPrice.follow(call.organization_id, call.run_id, call.call_id)
          : CarrierPrice.keep(call.organization_id, call.run_id, carrier.provider, read.value.price)
      }
      const now = yield* Clock.currentTimeMillis
      if (now + Duration.toMillis(interval) > call.reclaim_at.getTime()) return
      yield* Effect.sleep(interval)
    }
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning(`the final status of run ${call.run_id} was not read`, cause)
    ),
    Effect.withSpan("CarrierFinalStatus.settle", { attributes: { run: call.run_id } })
  )
