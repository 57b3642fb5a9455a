import { Clock, Effect, Either, Fiber, FiberSet, Layer } from "effect"
import * as CallEventsModule from "../calls/CallEvents.js"
import { CallEvents } from "../calls/CallEvents.js"
import { TelephonyUnavailable } from "../calls/CallErrors.js"
import { ringTimeoutSeconds } from "../calls/OutboundChannels.js"
import { Telephony } from "../calls/Telephony.js"
import { RunStore } from "../runs/RunStore.js"
import { Carrier } from "./Carrier.js"
import * as CarrierAddresses from "./CarrierAddresses.js"
import * as CarrierDialOutcome from "./CarrierDialOutcome.js"
import { outcomeUnknown } from "./CarrierErrors.js"

/**
 * The voice runtime of real calls: a call that passed the gates is dialed through the `Carrier` (Twilio)
 * from its caller id, the carrier told to ask `/telephony/{provider}/answer/{run}` once it connects and to
 * report its progress to `/telephony/{provider}/status/{run}` (`CarrierCallbacks`), to let it ring at most
 * `ringTimeoutSeconds` and to last at most the agent's maximum duration once answered. A carrier that
 * refuses the call (a 4xx) or cannot be reached at all fails the placement (`TelephonyUnavailable`):
 * `CallPlacement` then ends the run `failed` and gives its channel back. A dial whose answer was lost
 * (a deadline, a dropped connection, a 5xx: the call may exist and ring) does not fail: the run stays
 * queued, its channel held, while `CarrierDialOutcome` looks for its outcome in the background. The request
 * placing the call going away mid-dial changes none of this: the hand-off is shielded, the dial runs to
 * its answer, and that answer is kept. Every call
 * needs a caller id: with none, `CallPlacement` refuses it before a run exists (`fallback` is
 * `TWILIO_DEFAULT_FROM`).
 */
export const make = (fallbackCallerId: string | null) =>
  Effect.gen(function* () {
    const carrier = yield* Carrier
    const addresses = yield* CarrierAddresses.CarrierAddresses
    const runs = yield* RunStore
    const events = yield* CallEvents
    // the dials (shielded hand-offs) and the lost dials' look-ups, ended with the service
    const background = yield* FiberSet.make()
    const context = yield* Effect.context<Carrier | RunStore | CallEvents>()
    return Telephony.of({
      callerId: { fallback: fallbackCallerId },
      shieldedHandOff: true,
      placeCall: (call) =>
        Effect.gen(function* () {
          const runId = call.run.workflow_run_id
          const to = call.run.phone_number
          const from = call.from_phone_number
          if (from === null || to === null) {
            // CallPlacement gives every call a caller id when the runtime has a rule: a defect otherwise
            return yield* Effect.dieMessage(
              `run ${runId} reached the carrier without a caller id or a number to call`
            )
          }
          const dialedAt = new Date(yield* Clock.currentTimeMillis)
          // The hand-off is shielded (`shieldedHandOff`): a dial once sent may have made the phone ring,
          // so the request placing the call going away does not cut it; its outcome is kept below. The
          // dial runs in a fiber of the service's (not a child of this one, which an interruption of this
          // one would reach at once), interruptible, so that its deadline (the carrier client's) still
          // cuts it; this one waits for it.
          const placed = yield* carrier
            .dial({
              run_id: runId,
              to,
              from,
              answer_url: CarrierAddresses.answerUrl(addresses, carrier.provider, runId),
              status_url: CarrierAddresses.statusUrl(addresses, carrier.provider, runId),
              time_limit_seconds: call.agent.workflow_configurations.max_call_duration_seconds,
              ring_timeout_seconds: ringTimeoutSeconds
            })
            .pipe(
              Effect.either,
              Effect.interruptible,
              (dial) => FiberSet.run(background, dial),
              Effect.flatMap(Fiber.join),
              Effect.withSpan("CarrierTelephony.dial", {
                attributes: { provider: carrier.provider, run: runId }
              })
            )
          if (Either.isRight(placed)) {
            // the media socket will have to name this call (`MediaSockets`), and hang-ups go to it
            return yield* runs.recordCarrierCall(runId, placed.right.call_id)
          }
          const error = placed.left
          if (!outcomeUnknown(error)) return yield* new TelephonyUnavailable({ reason: error.message })
          // the call may exist: the run stays queued, its channel held, until its outcome is known
          yield* Effect.ignore(
            events.report(call.run.organization_id, runId, {
              type: "log",
              level: "warning",
              message: CarrierDialOutcome.unknownMessage(error.message)
            })
          )
          yield* FiberSet.run(
            background,
            CarrierDialOutcome.resolve({
              organization_id: call.run.organization_id,
              run_id: runId,
              to,
              from,
              dialed_at: dialedAt
            }).pipe(Effect.provide(context))
          )
        })
    })
  })

/** Real calls through the `Carrier` and `CarrierAddresses` of the environment. */
export const layer = (fallbackCallerId: string | null) =>
  Layer.scoped(Telephony, make(fallbackCallerId)).pipe(Layer.provide(CallEventsModule.layer))
