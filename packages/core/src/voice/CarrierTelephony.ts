import { Effect, Layer } from "effect"
import { Telephony } from "../calls/Telephony.js"
import { TelephonyUnavailable } from "../calls/CallErrors.js"
import { RunStore } from "../runs/RunStore.js"
import { Carrier } from "./Carrier.js"
import * as CarrierAddresses from "./CarrierAddresses.js"

/**
 * The voice runtime of real calls: a call that passed the gates is dialed through the `Carrier` (Twilio)
 * from its caller id, the carrier told to ask `/telephony/{provider}/answer/{run}` once it connects and to
 * report its progress to `/telephony/{provider}/status/{run}` (`CarrierCallbacks`). A carrier that is
 * down or refuses the call fails the placement (`TelephonyUnavailable`): `CallPlacement` then marks the
 * run `failed` and gives its channel back. Every call needs a caller id: with none, `CallPlacement`
 * refuses it before a run exists (`fallback` is `TWILIO_DEFAULT_FROM`).
 */
export const make = (fallbackCallerId: string | null) =>
  Effect.gen(function* () {
    const carrier = yield* Carrier
    const addresses = yield* CarrierAddresses.CarrierAddresses
    const runs = yield* RunStore
    return Telephony.of({
      callerId: { fallback: fallbackCallerId },
      placeCall: (call) =>
        Effect.gen(function* () {
          const runId = call.run.workflow_run_id
          const to = call.run.phone_number
          if (call.from_phone_number === null || to === null) {
            // CallPlacement gives every call a caller id when the runtime has a rule: a defect otherwise
            return yield* Effect.dieMessage(
              `run ${runId} reached the carrier without a caller id or a number to call`
            )
          }
          const placed = yield* carrier
            .dial({
              run_id: runId,
              to,
              from: call.from_phone_number,
              answer_url: CarrierAddresses.answerUrl(addresses, carrier.provider, runId),
              status_url: CarrierAddresses.statusUrl(addresses, carrier.provider, runId),
              time_limit_seconds: call.agent.workflow_configurations.max_call_duration_seconds
            })
            .pipe(
              Effect.mapError((error) => new TelephonyUnavailable({ reason: error.message })),
              Effect.withSpan("CarrierTelephony.dial", {
                attributes: { provider: carrier.provider, run: runId }
              })
            )
          // the media socket will have to name this call (`MediaSockets`), and hang-ups go to it
          yield* runs.recordCarrierCall(runId, placed.call_id)
        })
    })
  })

/** Real calls through the `Carrier` and `CarrierAddresses` of the environment. */
export const layer = (
  fallbackCallerId: string | null
): Layer.Layer<Telephony, never, Carrier | CarrierAddresses.CarrierAddresses | RunStore> =>
  Layer.effect(Telephony, make(fallbackCallerId))
