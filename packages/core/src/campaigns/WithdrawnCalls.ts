import { Effect, Option } from "effect"
import { ChannelStore } from "../calls/ChannelStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"
import { CampaignId, type ContactStatus } from "./Campaign.js"
import * as CampaignAttempts from "./CampaignAttempts.js"
import { canceledReason } from "./Campaigns.js"
import { CampaignStore } from "./CampaignStore.js"
import * as CampaignTally from "./CampaignTally.js"

/**
 * Calls claimed by the dialer whose campaign was paused or canceled before telephony got them: the claim
 * committed, then `pause`/`cancel` was answered, so the call must not start. Such a call is withdrawn as
 * if it had never been claimed: its run is erased, its channel freed, and its contact goes back to
 * `pending` (paused) or is skipped with reason `canceled` (canceled), the attempt uncounted.
 */

/**
 * A short read before dialing, for the runs one claim created (all of one campaign): the ids of those
 * still `queued` while their campaign is still `running`, in one read (`CampaignStore.stillQueued`).
 */
export const stillWanted = (
  organizationId: OrganizationId,
  campaignId: CampaignId,
  runs: ReadonlyArray<Run>
) =>
  Effect.flatMap(CampaignStore, (store) =>
    store.stillQueued(
      organizationId,
      campaignId,
      runs.map((run) => run.workflow_run_id)
    )
  )

/**
 * Withdraws the call, in the caller's transaction, when it is still unwanted with its rows held (the
 * run, then its contact, then the campaign: the order in which a call's end holds them). Answers whether
 * the call should be placed after all (its campaign running again); a run no longer queued, or a contact
 * no longer in progress on it, was settled elsewhere and is neither placed nor touched.
 */
export const withdraw = (run: Run, now: Date) =>
  Effect.gen(function* () {
    const runs = yield* RunStore
    const store = yield* CampaignStore
    const organizationId = run.organization_id
    if (run.campaign_id === null) return true
    const current = yield* runs.findForUpdate(organizationId, run.workflow_run_id)
    if (Option.isNone(current) || current.value.status !== "queued") return false
    const contact = yield* store.findContactByRunForUpdate(organizationId, run.workflow_run_id)
    const campaign = yield* store.findForUpdate(organizationId, CampaignId.make(run.campaign_id))
    if (Option.isNone(contact) || contact.value.status !== "in_progress" || Option.isNone(campaign)) {
      return false
    }
    if (campaign.value.status === "running") return true
    const status: ContactStatus = campaign.value.status === "paused" ? "pending" : "skipped"
    yield* store.updateContact(organizationId, contact.value.id, {
      status,
      attempts: Math.max(0, contact.value.attempts - 1),
      last_run_id: null,
      outcome: status === "skipped" ? canceledReason : null,
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null
    })
    yield* runs.remove(organizationId, run.workflow_run_id)
    if (run.channel_reservation_id !== null) {
      yield* Effect.flatMap(ChannelStore, (channels) =>
        channels.release(organizationId, run.channel_reservation_id!)
      )
    }
    const moved = CampaignTally.move("in_progress", status)
    yield* CampaignAttempts.tallyAndSettle(campaign.value, { ...moved, attempts: moved.attempts - 1 }, now)
    return false
  })
