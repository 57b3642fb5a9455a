import { Cause, Clock, Effect, Metric } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import { ChannelStore } from "../calls/ChannelStore.js"
import { callsPlaced } from "../observability/OperationalEvents.js"
import { Telephony } from "../calls/Telephony.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Campaign } from "./Campaign.js"
import { CampaignStore } from "./CampaignStore.js"
import type { Dial } from "./DialerClaim.js"
import * as WithdrawnCalls from "./WithdrawnCalls.js"

/** How many of a claim's calls are handed to telephony at once. */
const dialsAtOnce = 16

/**
 * Hands a claim's calls to telephony, after its transaction committed, each keyed by its run. One read
 * first tells which are still wanted (`WithdrawnCalls.stillWanted`); one paused or canceled since is
 * withdrawn instead (unless its campaign runs again by then). A refused dial, or one that fails
 * unexpectedly (a defect), ends the attempt `failed` and frees its channel; the others go on.
 */
export const makeClaimDialer = Effect.gen(function* () {
  const store = yield* CampaignStore
  const transactions = yield* Transactions
  const channels = yield* ChannelStore
  const runs = yield* RunStore
  const telephony = yield* Telephony
  const events = yield* CallEvents
  const random = yield* SecureRandom
  const webhookStore = yield* WebhookStore
  const withStores = <A, E>(
    effect: Effect.Effect<A, E, CampaignStore | WebhookStore | SecureRandom | RunStore | ChannelStore>
  ): Effect.Effect<A, E> =>
    effect.pipe(
      Effect.provideService(CampaignStore, store),
      Effect.provideService(WebhookStore, webhookStore),
      Effect.provideService(SecureRandom, random),
      Effect.provideService(RunStore, runs),
      Effect.provideService(ChannelStore, channels)
    )

  const place = ({ run, agent, definition, fromNumber }: Dial) => {
    const workflow = definition.workflow_definition
    return telephony
      .placeCall({
        run,
        agent,
        definition,
        from_phone_number: fromNumber,
        first_message: InitialContextTemplate.render(workflow.first_message, run.initial_context),
        system_prompt: InitialContextTemplate.render(workflow.system_prompt, run.initial_context)
      })
      .pipe(
        // counted, not logged one by one: the claim batch has its line (`dialerClaimed`)
        Effect.zipLeft(Metric.increment(callsPlaced))
      )
  }

  /** Paused or canceled since the claim committed: withdrawn, or placed if its campaign runs again. */
  const withdrawOrPlace = (dial: Dial) =>
    transactions
      .run(
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          withStores(WithdrawnCalls.withdraw(dial.run, new Date(ms)))
        )
      )
      .pipe(Effect.flatMap((yes) => (yes ? place(dial) : Effect.void)))

  const endFailed = (dial: Dial) =>
    events
      .report(dial.run.organization_id, dial.run.workflow_run_id, {
        type: "ended",
        status: "failed",
        duration_seconds: 0
      })
      .pipe(
        // not ended now: the overdue-calls sweep ends it later
        Effect.catchAllCause((cause) =>
          Effect.logWarning(
            `campaign dial of run ${dial.run.workflow_run_id}: its failed end was not written`,
            cause
          )
        )
      )

  return (campaign: Campaign, dials: ReadonlyArray<Dial>) =>
    Effect.gen(function* () {
      if (dials.length === 0) return
      const wanted = yield* withStores(
        WithdrawnCalls.stillWanted(
          campaign.organization_id,
          campaign.id,
          dials.map((d) => d.run)
        )
        // a read that fails unexpectedly: each call is checked in a transaction of its own instead
      ).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logWarning("campaign dials: the withdrawn calls could not be read at once", cause),
            new Set<Dial["run"]["workflow_run_id"]>()
          )
        )
      )
      yield* Effect.forEach(
        dials,
        (dial) =>
          (wanted.has(dial.run.workflow_run_id) ? place(dial) : withdrawOrPlace(dial)).pipe(
            // Interrupted from within (the dialer's own interruption at shutdown runs no handler: the
            // runtime skips it): not a fault to log; the call still ends failed, as after any other stop.
            Effect.catchAllCause((cause) =>
              Effect.zipRight(
                Cause.isInterruptedOnly(cause)
                  ? Effect.void
                  : Effect.logError(
                      `campaign dial of run ${dial.run.workflow_run_id} failed; its call ends failed`,
                      cause
                    ),
                endFailed(dial)
              )
            )
          ),
        { discard: true, concurrency: dialsAtOnce }
      )
    })
})
