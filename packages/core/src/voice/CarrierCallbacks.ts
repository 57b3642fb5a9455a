import { Clock, Context, Effect, FiberSet, Layer, Option } from "effect"
import { CallEvents, type CallEvent } from "../calls/CallEvents.js"
import type { Run } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import { type AnswerDocument, Carrier, type CarrierWebhook } from "./Carrier.js"
import type { InvalidCarrierCallback, InvalidCarrierSignature } from "./CarrierErrors.js"
import * as CarrierAddresses from "./CarrierAddresses.js"
import * as CallStatusOrder from "./CallStatusOrder.js"
import * as CallAudioHandOver from "./CallAudioHandOver.js"
import * as CarrierPrice from "./CarrierPrice.js"
import { Transactions } from "../storage/Transactions.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/**
 * The carrier's webhooks for a run's call (`/telephony/{provider}/answer|status/{run}`). Each is checked
 * first (the carrier's signature over the public URL and the form): a missing or wrong one is refused
 * (403) before anything is read or changed. Any server may take them: the run is read from storage. A
 * signed webhook naming the run's call keeps its id on the run when none is kept yet (a dial whose answer
 * was lost, `CarrierDialOutcome`: the call exists after all).
 *
 * - `answer`: the call connected; the answer is the document that connects its audio to the run's media
 *   socket, with a fresh `StreamToken` in the path. A call with no run to talk to (the run ended, or is
 *   not a phone run, or does not exist) is answered with the carrier's hang-up document: the callee hears
 *   nothing odd and the call ends.
 * - `status`: the call's progress as `CallEvents` (ringing → `ringing`, in-progress → `answered`, a final
 *   status → `ended` with the carrier's billed duration). Duplicated or reordered callbacks change
 *   nothing (`CallStatusOrder` maps the words, `CallEvents` moves a run only forward), and one after the
 *   end is answered as accepted: the carrier has nothing to retry. The call's price is not read while the
 *   carrier waits for the answer: after the end, in the background (`CarrierPrice.follow`).
 */

export type CallbackError = InvalidCarrierSignature | InvalidCarrierCallback | RunNotFound

export class CarrierCallbacks extends Context.Tag("@voice-agent-platform/core/CarrierCallbacks")<
  CarrierCallbacks,
  {
    readonly provider: string
    /** The document answering the carrier's answer webhook for `runId` (a hang-up when it has no run). */
    readonly answer: (
      runId: RunId,
      webhook: CarrierWebhook
    ) => Effect.Effect<AnswerDocument, InvalidCarrierSignature>
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
  const followUps = yield* FiberSet.make()
  const context = yield* Effect.context<Carrier | RunStore | Transactions>()

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
      const run = yield* Effect.option(phoneRun(runId))
      // nobody to talk to: the call ends at once, saying nothing
      if (Option.isNone(run) || isFinal(run.value.status)) return carrier.hangUpDocument
      const callId = carrier.callIdOf(webhook.params)
      if (callId !== null) yield* runs.recordCarrierCall(runId, callId)
      const now = new Date(yield* Clock.currentTimeMillis)
      const url = yield* CarrierAddresses.streamUrl(addresses, carrier.provider, runId, now)
      return carrier.answerDocument(url)
    })

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
      // the call exists: kept when the dial's answer was lost (the first kept wins)
      if (!isFinal(run.status)) yield* runs.recordCarrierCall(runId, callback.call_id)
      const event = eventOf(callback.call_status, callback.duration_seconds)
      if (event === null || isFinal(run.status)) return
      const report = (e: CallEvent) => events.report(run.organization_id, runId, e)
      if (event.type === "ended" && run.status === "in_progress" && CallAudioHandOver.awaitsHandOver(run)) {
        yield* report({ type: "log", level: "info", message: CallAudioHandOver.waitingMessage })
        yield* handOver(runId)
      }
      const outcome = yield* report(event)
      // the price after the answer, in the background: the carrier settles it after the end anyway
      if (event.type === "ended" && outcome._tag === "Applied") {
        yield* FiberSet.run(
          followUps,
          CarrierPrice.follow(run.organization_id, runId, callback.call_id).pipe(Effect.provide(context))
        )
      }
    }).pipe(
      // a callback after the end (a duplicate, a late one) is accepted: nothing changes
      Effect.catchTag("CallAlreadyEnded", () => Effect.void),
      Effect.catchTag("InvalidRecording", (e) => Effect.die(e))
    )

  return CarrierCallbacks.of({
    provider: carrier.provider,
    answer: OperationSpans.fn("CarrierCallbacks.answer")(answer, SpanAttributes.run),
    status: OperationSpans.fn("CarrierCallbacks.status")(status, SpanAttributes.run)
  })
})

export const layer: Layer.Layer<
  CarrierCallbacks,
  never,
  Carrier | CarrierAddresses.CarrierAddresses | RunStore | CallEvents | Transactions
> = Layer.scoped(CarrierCallbacks, make)
