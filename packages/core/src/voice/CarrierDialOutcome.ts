import { Clock, Duration, Effect, Option } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import { reporter } from "../calls/RunReporter.js"
import { beforeAnswerSeconds } from "../calls/OutboundChannels.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { isFinal } from "../runs/Run.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Carrier, type CarrierCall } from "./Carrier.js"
import * as CallStatusOrder from "./CallStatusOrder.js"
import { CarrierTimings } from "./CarrierTimings.js"

/**
 * A dial whose answer was lost. When the carrier's answer to a dial does not come (its deadline passed,
 * the connection dropped after the request was sent, a 5xx, a 2xx that could not be read), the call may
 * exist and be ringing: failing the run would free its channel and let a retry or a campaign dial the
 * person again while the first call rings. So such a run stays `queued`, its channel held, with a log
 * line saying its outcome is unknown (`unknownMessage`), and its outcome is looked for:
 *
 * - a signed callback naming the run's call (its status callbacks, the answer webhook) keeps its id
 *   (`RunStore.recordCarrierCall`) and moves the run on as any dialed call: the call exists;
 * - else, after `CarrierTimings.lostDialCheck` (5 s: time for the carrier's first callback to come
 *   instead) and then every 3 times that until `deadline`, the carrier's newest calls from
 *   the caller id to the number are read (`Carrier.findCalls`). None created since the dial
 *   (`createdSkew` aside): the call was never placed, and the run ends `failed` through `CallEvents`
 *   (channel freed once, webhooks, ledger). Only ended ones: nobody is ringing, the same. One still live:
 *   it may be the run's, whose callbacks will tell; the look-up goes on;
 * - past `deadline` with nothing known (the carrier unreachable, a live call that named no run), the run
 *   keeps its channel until its reclaim deadline (`OverdueCalls`: the time before an answer, the agent's
 *   maximum duration and a grace), when any call it may have has ended.
 *
 * The look-up runs in the background on the server that dialed; one that stops leaves the run to the
 * reclaim, which never frees a channel a call may still use.
 */

/** The run's log line when its dial's answer was lost. */
export const unknownMessage = (reason: string) =>
  `The carrier's answer to the dial was lost (${reason}); the call may be ringing: ` +
  `its channel stays held until its outcome is known`

/** The run's log line when the carrier has no live call for a lost dial. */
export const notPlacedMessage =
  "The carrier has no live call for the lost dial: the call was not placed (or has ended)"

/** The run's log line when the look-up's deadline passed with nothing known. */
export const stillUnknownMessage =
  "The lost dial's outcome is still unknown: the channel stays held until the call's reclaim deadline"

/** The last look-up starts before this, from the dial: by then a call placed has been answered or given up. */
export const deadline = Duration.seconds(beforeAnswerSeconds)

/** A call created this long before the dial began still counts as the dial's (the clocks may differ). */
export const createdSkew = Duration.seconds(60)

/** What a look-up found: the call may be ringing, or none is live, or nothing is known yet. */
export type Finding = "none_live" | "maybe_live" | "unknown"

/** What the carrier's calls say of a dial begun at `dialedAt`. */
export const findingOf = (calls: ReadonlyArray<CarrierCall>, dialedAt: Date): Finding => {
  const since = dialedAt.getTime() - Duration.toMillis(createdSkew)
  const candidates = calls.filter((call) => call.created_at === null || call.created_at.getTime() >= since)
  return candidates.some(
    (call) => CallStatusOrder.rank(CallStatusOrder.runStatusOf(call.status) ?? "queued") < 3
  )
    ? "maybe_live"
    : "none_live"
}

/** The dial to resolve. */
export interface LostDial {
  readonly organization_id: OrganizationId
  readonly run_id: RunId
  readonly to: string
  readonly from: string
  readonly dialed_at: Date
}

/** Looks for a lost dial's outcome (see above) until it is known or `deadline` passed. Never fails. */
export const resolve = (dial: LostDial) =>
  Effect.gen(function* () {
    const carrier = yield* Carrier
    const runs = yield* RunStore
    const events = yield* CallEvents
    const { lostDialCheck } = yield* CarrierTimings
    const lookUpInterval = Duration.times(lostDialCheck, 3)
    // a refused report (the run ended meanwhile, through a callback) is logged, as a call's are
    const report = reporter(events, dial.organization_id, dial.run_id)

    /** Whether the run's call is known (a callback named it) or the run has moved on or ended. */
    const settled = Effect.zipWith(
      runs.carrierCallOf(dial.run_id),
      runs.findAnyOrganization(dial.run_id),
      (call, run) => Option.isSome(call) || Option.isNone(run) || run.value.status !== "queued"
    )
    const lookUp = carrier.findCalls({ to: dial.to, from: dial.from }).pipe(
      Effect.map((calls) => findingOf(calls, dial.dialed_at)),
      Effect.orElseSucceed((): Finding => "unknown")
    )

    yield* Effect.sleep(lostDialCheck)
    for (;;) {
      if (yield* settled) return
      const finding = yield* lookUp
      if (finding === "none_live") {
        // a callback may have come meanwhile: the run is read again, held, by the end itself
        if (yield* settled) return
        yield* report({ type: "log", level: "warning", message: notPlacedMessage })
        yield* report({ type: "ended", status: "failed", duration_seconds: 0 })
        return
      }
      const elapsed = (yield* Clock.currentTimeMillis) - dial.dialed_at.getTime()
      if (elapsed + Duration.toMillis(lookUpInterval) > Duration.toMillis(deadline)) {
        const run = yield* runs.findAnyOrganization(dial.run_id)
        if (Option.isSome(run) && !isFinal(run.value.status) && !(yield* settled))
          yield* report({ type: "log", level: "warning", message: stillUnknownMessage })
        return
      }
      yield* Effect.sleep(lookUpInterval)
    }
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning(`the lost dial of run ${dial.run_id}: look-up failed`, cause)
    ),
    Effect.withSpan("CarrierDialOutcome.resolve", { attributes: { run: dial.run_id } })
  )
