import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { CallEvents, type CallEvent } from "../calls/CallEvents.js"
import type { Run } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { withOperationSpans } from "../observability/OperationSpans.js"
import { CallAlreadyEnded } from "../calls/CallEventErrors.js"
import { type AnswerDocument, Carrier, type CarrierWebhook } from "./Carrier.js"
import type { InvalidCarrierCallback, InvalidCarrierSignature } from "./CarrierErrors.js"
import * as CarrierAddresses from "./CarrierAddresses.js"
import * as CallStatusOrder from "./CallStatusOrder.js"
import * as CallAudioHandOver from "./CallAudioHandOver.js"

/**
 * The carrier's webhooks for a run's call (`/telephony/{provider}/answer|status/{run}`). Each is checked
 * first (the carrier's signature over the public URL and the form): a missing or wrong one is refused
 * (403) before anything is read or changed. Any server may take them: the run is read from storage.
 *
 * - `answer`: the call connected; the answer is the document that connects its audio to the run's media
 *   socket, with a fresh `StreamToken` in the path.
 * - `status`: the call's progress as `CallEvents` (ringing → `ringing`, in-progress → `answered`, a final
 *   status → `ended` with the carrier's billed duration). Duplicated or reordered callbacks change
 *   nothing (`CallStatusOrder` maps the words, `CallEvents` moves a run only forward), and one after the
 *   end is answered as accepted: the carrier has nothing to retry. On the end the call's price is read from
 *   the carrier when it has settled it, and kept in the run's logs.
 */

/** How long the carrier's price is waited for on a call's end before the end is written without it. */
export const priceTimeout = Duration.seconds(3)

export type CallbackError = InvalidCarrierSignature | InvalidCarrierCallback | RunNotFound

export class CarrierCallbacks extends Context.Tag("@voice-agent-platform/core/CarrierCallbacks")<
  CarrierCallbacks,
  {
    readonly provider: string
    /** The document answering the carrier's answer webhook for `runId`. */
    readonly answer: (
      runId: RunId,
      webhook: CarrierWebhook
    ) => Effect.Effect<AnswerDocument, CallbackError | CallAlreadyEnded>
    /** Applies a status callback for `runId`. */
    readonly status: (runId: RunId, webhook: CarrierWebhook) => Effect.Effect<void, CallbackError>
  }
>() {}

/** The event a carrier status reports, or null for the carrier's early ones (queued, initiated). */
export const eventOf = (
  callStatus: Parameters<typeof CallStatusOrder.runStatusOf>[0],
  durationSeconds: number | null
): CallEvent | null => {
  const status = CallStatusOrder.runStatusOf(callStatus)
  switch (status) {
    case null:
    case "initialized":
    case "queued":
      return null
    case "ringing":
      return { type: "ringing" }
    case "in_progress":
      return { type: "answered" }
    default:
      // only a completed call talked: the others' billed duration is nothing
      return { type: "ended", status, duration_seconds: status === "completed" ? (durationSeconds ?? 0) : 0 }
  }
}

export const make = Effect.gen(function* () {
  const carrier = yield* Carrier
  const addresses = yield* CarrierAddresses.CarrierAddresses
  const runs = yield* RunStore
  const events = yield* CallEvents

  const phoneRun = (runId: RunId) =>
    Effect.flatMap(
      runs.findAnyOrganization(runId),
      Option.match({
        onNone: () => Effect.fail(new RunNotFound({ workflow_run_id: runId })),
        onSome: (run): Effect.Effect<Run, RunNotFound> =>
          run.mode === "phone"
            ? Effect.succeed(run)
            : Effect.fail(new RunNotFound({ workflow_run_id: runId }))
      })
    )

  const answer = (runId: RunId, webhook: CarrierWebhook) =>
    Effect.gen(function* () {
      yield* carrier.verifyWebhook({
        ...webhook,
        url: CarrierAddresses.answerUrl(addresses, carrier.provider, runId)
      })
      const run = yield* phoneRun(runId)
      if (isFinal(run.status))
        return yield* new CallAlreadyEnded({ workflow_run_id: runId, status: run.status })
      const now = new Date(yield* Clock.currentTimeMillis)
      const url = yield* CarrierAddresses.streamUrl(addresses, carrier.provider, runId, now)
      return carrier.answerDocument(url)
    })

  /** The carrier's price of the call, when it has one within `priceTimeout`; never fails the end. */
  const priceLine = (callId: string) =>
    carrier.callPrice(callId).pipe(
      Effect.timeout(priceTimeout),
      Effect.map((price) =>
        price === null ? null : `Carrier price (${carrier.provider}): ${price.amount} ${price.currency}`
      ),
      Effect.orElseSucceed(() => null)
    )

  /**
   * Waits until the run's voice loop handed its audio over (or the run ended otherwise), reading the run
   * from storage: the loop may run on another server. At most `handOverTimeout`.
   */
  const handOver = (runId: RunId) => {
    const settled = Effect.map(runs.findAnyOrganization(runId), (found) =>
      Option.match(found, {
        onNone: () => true,
        onSome: (run) => isFinal(run.status) || !CallAudioHandOver.awaitsHandOver(run)
      })
    )
    const poll: Effect.Effect<void> = Effect.flatMap(settled, (done) =>
      done ? Effect.void : Effect.zipRight(Effect.sleep(CallAudioHandOver.pollInterval), poll)
    )
    return Effect.ignore(Effect.timeout(poll, CallAudioHandOver.handOverTimeout))
  }

  const status = (runId: RunId, webhook: CarrierWebhook) =>
    Effect.gen(function* () {
      yield* carrier.verifyWebhook({
        ...webhook,
        url: CarrierAddresses.statusUrl(addresses, carrier.provider, runId)
      })
      const callback = yield* carrier.parseStatus(webhook.params)
      const run = yield* phoneRun(runId)
      const event = eventOf(callback.call_status, callback.duration_seconds)
      if (event === null || isFinal(run.status)) return
      const report = (e: CallEvent) => events.report(run.organization_id, runId, e)
      if (event.type === "ended") {
        const line = yield* priceLine(callback.call_id)
        if (line !== null) yield* report({ type: "log", level: "info", message: line })
        if (run.status === "in_progress" && CallAudioHandOver.awaitsHandOver(run)) {
          yield* report({ type: "log", level: "info", message: CallAudioHandOver.waitingMessage })
          yield* handOver(runId)
        }
      }
      yield* report(event)
    }).pipe(
      // a callback after the end (a duplicate, a late one) is accepted: nothing changes
      Effect.catchTag("CallAlreadyEnded", () => Effect.void),
      Effect.catchTag("InvalidRecording", (e) => Effect.die(e))
    )

  return CarrierCallbacks.of({
    provider: carrier.provider,
    ...withOperationSpans("CarrierCallbacks", { answer, status })
  })
})

export const layer: Layer.Layer<
  CarrierCallbacks,
  never,
  Carrier | CarrierAddresses.CarrierAddresses | RunStore | CallEvents
> = Layer.effect(CarrierCallbacks, make)
