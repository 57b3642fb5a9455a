import { Effect, Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run } from "../runs/Run.js"
import type { Campaign, Contact, ContactStatus } from "./Campaign.js"
import * as CampaignLifecycle from "./CampaignLifecycle.js"
import { CampaignStore, type CampaignWithoutTotals, type ContactPatch } from "./CampaignStore.js"
import * as CampaignTally from "./CampaignTally.js"
import type { TallyDelta } from "./CampaignTally.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import type { AttemptEnd } from "./RetryPolicy.js"
import * as RetryPolicy from "./RetryPolicy.js"

/**
 * Adds `delta` to the campaign's totals and, when that leaves a running campaign with every contact
 * final, completes it. Runs inside the caller's transaction, with the campaign held. Answers the
 * campaign as it is afterwards.
 */
export const tallyAndSettle = (campaign: Campaign, delta: TallyDelta, now: Date) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    // an idle claim moves nothing: no write
    if (!CampaignTally.isNone(delta)) yield* store.tally(campaign.organization_id, campaign.id, delta)
    const counts = CampaignTally.combine(
      { ...CampaignTally.none, counts: campaign.totals.counts },
      delta
    ).counts
    if (campaign.status === "running" && CampaignTally.allFinal(counts)) {
      const completed = yield* store.update(campaign.organization_id, campaign.id, {
        status: CampaignLifecycle.target.complete,
        ended_at: now
      })
      const settled = Option.getOrElse(completed, () => campaign)
      yield* Webhooks.enqueueCampaign(campaign.organization_id, "campaign.completed", eventData(settled))
      return settled
    }
    return campaign
  })

/** What a campaign event says about the campaign. */
export const eventData = (campaign: Campaign) => ({
  campaign_id: campaign.id,
  name: campaign.name,
  workflow_id: campaign.agent_id,
  status: campaign.status,
  counts: campaign.totals.counts,
  started_at: campaign.started_at?.toISOString() ?? null,
  completed_at: campaign.ended_at?.toISOString() ?? null
})

/** How a run's final status reads as an attempt's end. */
const attemptEnd = (status: Run["status"]): AttemptEnd =>
  status === "completed" || status === "busy" || status === "no_answer" || status === "canceled"
    ? status
    : "failed"

/**
 * How an attempt of a contact in progress that ended `end` moves it: the contact completes, waits for its
 * retry, or fails (per the campaign's retry policy; a retry in a canceled campaign is skipped with reason
 * `canceled`), its lease dropped. Answers the contact's change and the change to the campaign's totals
 * (the move, the attempt's talk time and cost), which the caller writes.
 */
const moveOn = (
  campaign: CampaignWithoutTotals,
  contact: Contact,
  end: AttemptEnd,
  durationSeconds: number,
  cost: number,
  now: Date
): { readonly patch: ContactPatch; readonly delta: TallyDelta } => {
  const next = RetryPolicy.afterAttempt(campaign, end, contact.attempts, now)
  const canceled = campaign.status === "canceled" && next._tag === "Retry"
  const status: ContactStatus = canceled
    ? "skipped"
    : next._tag === "Completed"
      ? "completed"
      : next._tag === "Retry"
        ? "pending"
        : "failed"
  return {
    patch: {
      status,
      outcome: canceled ? "canceled" : next._tag === "Completed" ? null : next.outcome,
      next_attempt_at: next._tag === "Retry" && !canceled ? next.at : null,
      lease_owner: null,
      lease_expires_at: null
    },
    delta: CampaignTally.attemptEnded(CampaignTally.move("in_progress", status), durationSeconds, cost)
  }
}

/**
 * An attempt of a contact in progress ended `end` (see `moveOn`), the campaign held (`findForUpdate`):
 * its totals take the change and a running campaign left with every contact final completes.
 */
export const settle = (
  campaign: Campaign,
  contact: Contact,
  end: AttemptEnd,
  durationSeconds: number,
  cost: number,
  now: Date
) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const { delta, patch } = moveOn(campaign, contact, end, durationSeconds, cost, now)
    yield* store.updateContact(contact.organization_id, contact.id, patch)
    return yield* tallyAndSettle(campaign, delta, now)
  })

/**
 * The call of a campaign's run ended (the run is final): its contact moves on (see `moveOn`). Runs in the
 * transaction that ends the run, which holds the run; nothing happens when no contact is in progress on
 * this run (its lease was already taken back). The contact is held, and its campaign only against status
 * changes, by one read (`findAttemptForEnd`); the contact's move and the totals' change are one write
 * (`endAttempt`), which does not hold the campaign's row, so simultaneous ends never wait for each other;
 * the campaign that this end leaves with every contact final is completed by the dialer's next round
 * (`CampaignStore.running` answers it), which holds it.
 */
export const runEnded = (run: Run, now: Date) =>
  Effect.gen(function* () {
    if (run.campaign_id === null) return
    const store = yield* CampaignStore
    const organizationId: OrganizationId = run.organization_id
    const found = yield* store.findAttemptForEnd(organizationId, run.workflow_run_id)
    if (Option.isNone(found) || found.value.contact.status !== "in_progress") return
    const { campaign, contact } = found.value
    const { delta, patch } = moveOn(
      campaign,
      contact,
      attemptEnd(run.status),
      run.duration_seconds ?? 0,
      run.cost ?? 0,
      now
    )
    yield* store.endAttempt(organizationId, contact.id, patch, campaign.id, delta)
  })
