import { Context, type Effect, type Option } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Page, PageRequest } from "../pagination/Page.js"
import type { RunId } from "../runs/RunId.js"
import type { RunKey } from "../runs/RunStore.js"
import type {
  Campaign,
  CampaignId,
  Contact,
  ContactId,
  ContactOrder,
  ContactStatus,
  ReportedContact
} from "./Campaign.js"
import type { TallyDelta } from "./CampaignTally.js"

export type NewCampaign = Omit<Campaign, "id" | "created_at" | "totals">
export type CampaignPatch = Partial<Pick<Campaign, "name" | "status" | "started_at" | "ended_at">>
export type NewContact = Pick<Contact, "phone_number" | "initial_context">
export type ContactPatch = Partial<
  Pick<
    Contact,
    "status" | "attempts" | "last_run_id" | "outcome" | "next_attempt_at" | "lease_owner" | "lease_expires_at"
  >
>

/**
 * A campaign without its totals: what a call's end reads of it (its status and retry policy decide the
 * contact's move; the totals take the end's change without being read).
 */
export type CampaignWithoutTotals = Omit<Campaign, "totals">

/** A contact in progress and its campaign, as a call's end reads them (`findAttemptsForEnd`). */
export interface AttemptForEnd {
  readonly contact: Contact
  readonly campaign: CampaignWithoutTotals
}

/**
 * Where an attempt's end moves its contact: completed, back to pending for a retry at
 * `next_attempt_at`, failed or skipped with its outcome. The contact's lease is always dropped.
 */
export type AttemptMove = Pick<Contact, "status" | "outcome" | "next_attempt_at">

/** One call's end as its campaign takes it: the contact's move and the change to the campaign's totals. */
export interface AttemptEndWrite {
  readonly organization_id: OrganizationId
  readonly campaign_id: CampaignId
  readonly contact_id: ContactId
  readonly move: AttemptMove
  readonly delta: TallyDelta
}

/** What adding contacts did: the contacts stored, and how many numbers the campaign already had. */
export interface AddedContacts {
  readonly added: ReadonlyArray<Contact>
  readonly duplicates: number
}

/**
 * Storage of campaigns and their contacts. The campaign's `totals` change only through `tally` (the
 * campaign held) or `endAttempts` (a call's end, the campaign not held), which callers run in the
 * transaction that moves the contacts (see `CampaignTally`); every read answers the totals of both.
 * Operations named "for update" hold their rows until the surrounding transaction ends (row locks in SQL).
 *
 * Holds on a campaign, strongest first: `findForUpdate` (status changes: every other hold waits),
 * `findForClaim` (dialers' claims take turns with each other and with status changes, not with calls'
 * ends), `findAttemptsForEnd` (calls' ends: only status changes wait for them, and they for those).
 */
export class CampaignStore extends Context.Tag("@voice-agent-platform/core/CampaignStore")<
  CampaignStore,
  {
    /** A new campaign, its totals zero. */
    readonly insert: (campaign: NewCampaign, now: Date) => Effect.Effect<Campaign>
    readonly find: (organizationId: OrganizationId, id: CampaignId) => Effect.Effect<Option.Option<Campaign>>
    /** The campaign, held until the transaction ends: changes to one campaign take turns, in any process. */
    readonly findForUpdate: (
      organizationId: OrganizationId,
      id: CampaignId
    ) => Effect.Effect<Option.Option<Campaign>>
    /**
     * The campaign, held as a dialer's claim holds it: claims of several processes take turns, and a status
     * change waits for the claim (and it for one), but calls' ends (`findAttemptsForEnd`,
     * `endAttempts`) go on meanwhile.
     */
    readonly findForClaim: (
      organizationId: OrganizationId,
      id: CampaignId
    ) => Effect.Effect<Option.Option<Campaign>>
    /** The organization's campaigns, newest first. */
    readonly list: (organizationId: OrganizationId, page: PageRequest) => Effect.Effect<Page<Campaign>>
    readonly update: (
      organizationId: OrganizationId,
      id: CampaignId,
      patch: CampaignPatch
    ) => Effect.Effect<Option.Option<Campaign>>
    /** Adds a change to the campaign's kept totals; the caller holds the campaign (`findForUpdate`/`findForClaim`). */
    readonly tally: (organizationId: OrganizationId, id: CampaignId, delta: TallyDelta) => Effect.Effect<void>
    /**
     * Adds pending contacts, in the order given; a number the campaign already has is not added again
     * (counted in `duplicates`). Nothing is added to another organization's campaign.
     */
    readonly addContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      contacts: ReadonlyArray<NewContact>,
      now: Date
    ) => Effect.Effect<AddedContacts>
    /** Which of the numbers (E.164) the organization's campaign already has: one lookup for many. */
    readonly numbersAmong: (
      organizationId: OrganizationId,
      id: CampaignId,
      phoneNumbers: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlySet<string>>
    readonly findContact: (
      organizationId: OrganizationId,
      campaignId: CampaignId,
      id: ContactId
    ) => Effect.Effect<Option.Option<Contact>>
    /** The contact whose last attempt is the run, held until the transaction ends. */
    readonly findContactByRunForUpdate: (
      organizationId: OrganizationId,
      runId: RunId
    ) => Effect.Effect<Option.Option<Contact>>
    /**
     * What calls' ends read of their campaigns' attempts, in one step for many runs: each contact whose
     * last attempt is one of the runs (a run of the contact's own organization), held as
     * `findContactByRunForUpdate` holds it, with its campaign: the campaign's status cannot change until
     * the transaction ends (a pause or cancel waits, or is waited for), while other ends and claims go on.
     * Contacts are locked in id order, so overlapping sets wait rather than deadlock. Campaigns are read
     * without their totals (in SQL, without summing their unfolded tallies). A run no contact's last
     * attempt is finds nothing; answers in no particular order.
     */
    readonly findAttemptsForEnd: (runs: ReadonlyArray<RunKey>) => Effect.Effect<ReadonlyArray<AttemptForEnd>>
    /**
     * Calls' ends move their contacts (each as `updateContact` with its `move` and no lease) and add the
     * changes to their campaigns' totals, in one step, without holding the campaigns' rows: simultaneous
     * ends never wait for each other. Every read answers the change once committed (SQL keeps it in rows
     * of their own, one per campaign and step, folded into the campaign's by the next claim).
     */
    readonly endAttempts: (ends: ReadonlyArray<AttemptEndWrite>) => Effect.Effect<void>
    /** Contacts in the order they were added. */
    readonly listContacts: (
      organizationId: OrganizationId,
      id: CampaignId,
      filter: { readonly status?: ContactStatus },
      page: PageRequest
    ) => Effect.Effect<Page<Contact>>
    readonly updateContact: (
      organizationId: OrganizationId,
      id: ContactId,
      patch: ContactPatch
    ) => Effect.Effect<Option.Option<Contact>>
    /**
     * The dialer placed attempts: each contact moves `in_progress` with its run, one more attempt, no
     * outcome or wait, under `owner`'s lease for `leaseSeconds` on the store's clock (as `renewLeases` and
     * `expiredLeases`: one clock for every lease, whatever the dialers' clocks say). One statement for the
     * claim's contacts.
     */
    readonly startAttempts: (
      organizationId: OrganizationId,
      attempts: ReadonlyArray<{ readonly id: ContactId; readonly runId: RunId }>,
      owner: string,
      leaseSeconds: number
    ) => Effect.Effect<void>
    /**
     * Of the campaign's runs given, those still `queued` while the campaign is `running`, in one read:
     * what the dialer may still hand to telephony after its claim committed (see `WithdrawnCalls`).
     */
    readonly stillQueued: (
      organizationId: OrganizationId,
      campaignId: CampaignId,
      runIds: ReadonlyArray<RunId>
    ) => Effect.Effect<ReadonlySet<RunId>>
    /** Erases a contact of the campaign; answers it. */
    readonly removeContact: (
      organizationId: OrganizationId,
      campaignId: CampaignId,
      id: ContactId
    ) => Effect.Effect<Option.Option<Contact>>
    /** Marks every pending contact of the campaign `skipped` with `outcome`; answers how many. */
    readonly skipPending: (
      organizationId: OrganizationId,
      id: CampaignId,
      outcome: string
    ) => Effect.Effect<number>
    /**
     * One page of the report: contacts in the order they were added, each with its last run. The caller
     * gives the total the page reports (it knows it from the campaign's kept counts), so no row is counted.
     */
    readonly report: (
      organizationId: OrganizationId,
      id: CampaignId,
      filter: { readonly status?: ContactStatus },
      page: PageRequest,
      totalCount: number
    ) => Effect.Effect<Page<ReportedContact>>
    /**
     * Report rows added after the contact whose `added_order` is `after` (null: from the start), at most
     * `limit`: how the CSV is streamed.
     */
    readonly reportAfter: (
      organizationId: OrganizationId,
      id: CampaignId,
      after: ContactOrder | null,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ReportedContact>>
    /** A run was deleted: the contact whose last attempt it was no longer names it. */
    readonly forgetRun: (organizationId: OrganizationId, runId: RunId) => Effect.Effect<void>
    /**
     * The running campaigns a dialer round visits, of every organization: only those with a pending
     * contact due at `now` or nothing left to dial (to be settled), the least recently visited first, at
     * most `perOrganization` of one organization and `limit` in all. Each one answered is marked visited
     * at `now`, so campaigns with nothing due never hold the others back.
     */
    readonly running: (
      now: Date,
      limit: number,
      perOrganization: number
    ) => Effect.Effect<ReadonlyArray<Campaign>>
    /**
     * Pending contacts of the campaign due at `now` (no `next_attempt_at`, or one passed), in the order
     * they were added, at most `limit`; held until the transaction ends, skipping those another
     * transaction holds (`FOR UPDATE SKIP LOCKED`).
     */
    readonly claimDue: (
      organizationId: OrganizationId,
      id: CampaignId,
      now: Date,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Contact>>
    /** Extends the leases of the contacts in progress that `owner` holds; answers how many. */
    readonly renewLeases: (owner: string, seconds: number) => Effect.Effect<number>
    /**
     * Contacts in progress whose lease ran out (their process died), of every organization, at most
     * `limit`. Leases are renewed (`seconds` from now) and compared on the store's clock (`now()` in SQL),
     * so a process whose own clock runs ahead never ends another's live calls.
     */
    readonly expiredLeases: (limit: number) => Effect.Effect<ReadonlyArray<Contact>>
    /**
     * A new campaign, as `insert`, only while the organization has fewer than `limit` campaigns not yet
     * completed or canceled; none (nothing stored) at the quota. Simultaneous creations take turns.
     */
    readonly insertWithin: (
      campaign: NewCampaign,
      now: Date,
      limit: number
    ) => Effect.Effect<Option.Option<Campaign>>
  }
>() {}
