import { Clock, Effect, Option } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import { backgroundSpan, untraced } from "../observability/BackgroundSpans.js"
import { SecureRandom } from "../randomness/SecureRandom.js"
import { isLive } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Contact } from "./Campaign.js"
import * as CampaignAttempts from "./CampaignAttempts.js"
import { CampaignStore } from "./CampaignStore.js"

/** The log line of a call taken back because the process that dialed it stopped renewing its lease. */
export const leaseExpiredMessage =
  "The dialer that placed this campaign call stopped; the attempt counts as failed"

/**
 * Takes back the attempts of a process that stopped renewing its leases (`CampaignStore.expiredLeases`,
 * on the store's clock), each ending `failed`: batches of `recoveryBatch`, repeated while one comes back
 * full; answers how many.
 */
export const make = (recoveryBatch: number) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const transactions = yield* Transactions
    const runs = yield* RunStore
    const events = yield* CallEvents
    const random = yield* SecureRandom
    const webhookStore = yield* WebhookStore

    const recoverOne = (contact: Contact) =>
      Effect.gen(function* () {
        const run =
          contact.last_run_id === null
            ? Option.none()
            : yield* runs.find(contact.organization_id, contact.last_run_id)
        if (Option.isSome(run) && isLive(run.value.status)) {
          // through CallEvents, like a runtime's own end: the channel is freed and the contact moves on
          const report = (event: Parameters<typeof events.report>[2]) =>
            events.report(contact.organization_id, run.value.workflow_run_id, event)
          yield* report({ type: "log", level: "error", message: leaseExpiredMessage }).pipe(
            Effect.zipRight(report({ type: "ended", status: "failed", duration_seconds: 0 })),
            Effect.ignore
          )
          return
        }
        yield* transactions.run(
          Effect.gen(function* () {
            const campaign = yield* store.findForUpdate(contact.organization_id, contact.campaign_id)
            const current = yield* store.findContact(contact.organization_id, contact.campaign_id, contact.id)
            if (Option.isNone(campaign) || Option.isNone(current) || current.value.status !== "in_progress")
              return
            if (current.value.lease_owner !== contact.lease_owner) return
            const now = new Date(yield* Clock.currentTimeMillis)
            yield* CampaignAttempts.settle(campaign.value, current.value, "failed", 0, 0, now).pipe(
              Effect.provideService(CampaignStore, store),
              Effect.provideService(WebhookStore, webhookStore),
              Effect.provideService(SecureRandom, random)
            )
          })
        )
      })

    return Effect.gen(function* () {
      let total = 0
      for (;;) {
        // polled untraced: only a batch that takes leases back is a trace (`CampaignDialer.recover`)
        const expired = yield* untraced(store.expiredLeases(recoveryBatch))
        if (expired.length > 0) {
          yield* Effect.forEach(expired, recoverOne, { discard: true }).pipe(
            backgroundSpan("CampaignDialer.recover", { contacts: expired.length })
          )
        }
        total += expired.length
        if (expired.length < recoveryBatch) return total
      }
    })
  })
