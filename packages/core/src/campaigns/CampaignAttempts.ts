import { Effect, Option } from "effect"
import type { Run } from "../runs/Run.js"
import type { Campaign, Contact, ContactStatus } from "./Campaign.js"
import * as CampaignLifecycle from "./CampaignLifecycle.js"
import {
  type AttemptEndWrite,
  type AttemptMove,
  CampaignStore,
  type CampaignWithoutTotals,
  type ContactPatch
} from "./CampaignStore.js"
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
 * `canceled`); its lease is dropped by whoever writes the move. Answers the contact's change and the change to the campaign's totals
 * (the move, the attempt's talk time and cost), which the caller writes.
 */
const moveOn = (
  campaign: CampaignWithoutTotals,
  contact: Contact,
  end: AttemptEnd,
  durationSeconds: number,
  cost: number,
  now: Date
): { readonly move: AttemptMove; readonly delta: TallyDelta } => {
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
    move: {
      status,
      outcome: canceled ? "canceled" : next._tag === "Completed" ? null : next.outcome,
      next_attempt_at: next._tag === "Retry" && !canceled ? next.at : null
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
    const { delta, move } = moveOn(campaign, contact, end, durationSeconds, cost, now)
    const patch: ContactPatch = { ...move, lease_owner: null, lease_expires_at: null }
    yield* store.updateContact(contact.organization_id, contact.id, patch)
    return yield* tallyAndSettle(campaign, delta, now)
  })

/**
 * Calls of campaigns' runs ended (the runs are final, held by the transaction that ended them): each
 * contact in progress on one of them moves on (see `moveOn`); a run whose contact is not in progress on
 * it any more (its lease was already taken back) moves nothing, nor does a run of no campaign. The
 * contacts are held, and their campaigns only against status changes, by one read
 * (`findAttemptsForEnd`); the contacts' moves and the totals' changes are one write (`endAttempts`),
 * which does not hold the campaigns' rows, so simultaneous ends never wait for each other; a campaign
 * these ends leave with every contact final is completed by the dialer's next round
 * (`CampaignStore.running` answers it), which holds it. Runs of no campaign cost no statement.
 */
export const runsEnded = (runs: ReadonlyArray<Run>, now: Date) =>
  Effect.gen(function* () {
    const ofCampaigns = runs.filter((run) => run.campaign_id !== null)
    if (ofCampaigns.length === 0) return
    const store = yield* CampaignStore
    const found = yield* store.findAttemptsForEnd(ofCampaigns)
    const byRun = new Map(ofCampaigns.map((run) => [`${run.organization_id}:${run.workflow_run_id}`, run]))
    const ends: Array<AttemptEndWrite> = []
    for (const { campaign, contact } of found) {
      const run = byRun.get(`${contact.organization_id}:${contact.last_run_id}`)
      if (run === undefined || contact.status !== "in_progress") continue
      const { delta, move } = moveOn(
        campaign,
        contact,
        attemptEnd(run.status),
        run.duration_seconds ?? 0,
        run.cost ?? 0,
        now
      )
      ends.push({
        organization_id: contact.organization_id,
        campaign_id: campaign.id,
        contact_id: contact.id,
        move,
        delta
      })
    }
    if (ends.length > 0) yield* store.endAttempts(ends)
  })
