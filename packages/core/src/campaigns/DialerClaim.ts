import { Clock, Effect, Either, Option } from "effect"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import { AgentStore } from "../agents/AgentStore.js"
import * as CallGates from "../calls/CallGates.js"
import { ChannelStore } from "../calls/ChannelStore.js"
import { Telephony } from "../calls/Telephony.js"
import { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import { type Gate, noRefusals } from "../observability/OperationalEvents.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import { SecureRandom, uuidV4 } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import { newRun } from "../runs/NewRun.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Campaign, Contact } from "./Campaign.js"
import * as CampaignAttempts from "./CampaignAttempts.js"
import { CampaignStore } from "./CampaignStore.js"
import * as CampaignTally from "./CampaignTally.js"
import type { TallyDelta } from "./CampaignTally.js"

/** `last_error` of a contact the Do not call list holds back. */
export const doNotCallReason = "do_not_call"
/** `last_error` of contacts that cannot be dialed because the campaign's agent is gone or archived. */
export const agentUnavailableReason = "agent_unavailable"
/** `last_error` of contacts that cannot be dialed because the campaign's caller id is no longer the organization's. */
export const phoneNumberUnavailableReason = "phone_number_unavailable"
/**
 * `last_error` of contacts that cannot be dialed because the runtime needs a caller id (a real carrier)
 * and there is none: the campaign chose no number, the organization has no active one, the deployment
 * no default (`POST …/calls` answers `422 no_caller_id` then).
 */
export const noCallerIdReason = "no_caller_id"

/** A call committed for dialing: telephony gets it once the transaction that created its run has ended. */
export interface Dial {
  readonly run: Run
  readonly agent: Agent
  readonly definition: AgentDefinition
  readonly fromNumber: string | null
}

/**
 * What one claim did: the calls to hand to telephony, how many contacts it moved in all, and how many
 * each call gate refused (counted by the dialer once the claim committed, as `POST …/calls` counts its own).
 */
export interface Claimed {
  readonly dials: ReadonlyArray<Dial>
  readonly moved: number
  readonly refused: Readonly<Record<Gate, number>>
}

/** What a claim is bounded by: its batch, and the lease its attempts start with. */
export interface ClaimSettings {
  readonly claimBatch: number
  readonly leaseSeconds: number
}

const nothing: Claimed = { dials: [], moved: 0, refused: noRefusals }

/**
 * The claim of the dialer known to the database as `owner`: one transaction for one campaign. The
 * campaign is held (`findForClaim`: dialers of several processes take turns on it, calls' ends go on),
 * due contacts are claimed (`SKIP LOCKED`) up to what `max_concurrency` and the organization's free
 * channels leave, and each goes through the call gates (`CallGates`, `POST …/calls`'s order). Do not call
 * skips it; calling hours make it wait for its window; busy channels make it wait their Retry-After;
 * otherwise its channel is reserved, its run created and it moves to `in_progress` under `owner`'s lease
 * (on the store's clock), all in this transaction.
 */
export const make = (owner: string, settings: ClaimSettings) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const transactions = yield* Transactions
    const agents = yield* AgentStore
    const organizations = yield* OrganizationStore
    const doNotCall = yield* DoNotCallStore
    const numbers = yield* PhoneNumberStore
    const channels = yield* ChannelStore
    const runs = yield* RunStore
    const random = yield* SecureRandom
    const webhookStore = yield* WebhookStore
    // the runtime's caller-id rule; a claim made without a runtime (a store's test) has none
    const telephony = yield* Effect.serviceOption(Telephony)
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const withCampaigns = <A, E>(
      effect: Effect.Effect<A, E, CampaignStore | WebhookStore | SecureRandom>
    ): Effect.Effect<A, E> =>
      effect.pipe(
        Effect.provideService(CampaignStore, store),
        Effect.provideService(WebhookStore, webhookStore),
        Effect.provideService(SecureRandom, random)
      )

    /**
     * The agent and caller id a campaign dials with, or why it cannot dial any more: its agent was
     * archived (or is gone), its `from_phone_number_id` is no longer an active number of the
     * organization, or the runtime needs a caller id and there is none. Checked in `POST …/calls`'s order: the agent, the caller id, then the gates.
     */
    const dialingAs = (campaign: Campaign) =>
      Effect.gen(function* () {
        const agent = yield* agents.find(campaign.organization_id, { _tag: "Number", id: campaign.agent_id })
        if (Option.isNone(agent) || agent.value.status === "archived") {
          return Either.left(agentUnavailableReason)
        }
        const definition = yield* agents.findDefinition(
          campaign.organization_id,
          agent.value.current_definition_id
        )
        if (Option.isNone(definition)) return Either.left(agentUnavailableReason)
        let fromNumber: string | null = null
        if (campaign.from_phone_number_id !== null) {
          const from = yield* numbers.find(campaign.from_phone_number_id)
          if (Option.isNone(from) || !CallGates.usableCallerId(from.value, campaign.organization_id)) {
            return Either.left(phoneNumberUnavailableReason)
          }
          fromNumber = from.value.number
        } else if (Option.isSome(telephony) && telephony.value.callerId !== undefined) {
          // a runtime that needs a caller id gets one as `POST …/calls` gives it (`CallPlacement`): the
          // organization's first active number, else the runtime's default
          const own = yield* numbers.oldestActive(campaign.organization_id)
          fromNumber = Option.isSome(own) ? own.value.number : telephony.value.callerId.fallback
          if (fromNumber === null) return Either.left(noCallerIdReason)
        }
        return Either.right({ agent: agent.value, definition: definition.value, fromNumber })
      })

    return (running: Campaign): Effect.Effect<Claimed> =>
      transactions.run(
        Effect.gen(function* () {
          const at = yield* now
          const found = yield* store.findForClaim(running.organization_id, running.id)
          if (Option.isNone(found) || found.value.status !== "running") return nothing
          const campaign = found.value
          const organizationId = campaign.organization_id
          const organization = yield* organizations.find(organizationId)
          if (Option.isNone(organization)) return nothing
          const capacity = organization.value.outbound_channels
          const free = capacity - (yield* channels.held(organizationId, at)).length
          const room = Math.min(campaign.max_concurrency - campaign.totals.counts.in_progress, free)
          if (room <= 0) {
            yield* CampaignAttempts.tallyAndSettle(campaign, CampaignTally.none, at).pipe(withCampaigns)
            return nothing
          }
          // more than there is room for: the gates before the channel (Do not call, calling hours) need none
          const due = yield* store.claimDue(organizationId, campaign.id, at, settings.claimBatch)
          const dialer = yield* dialingAs(campaign)
          let delta: TallyDelta = CampaignTally.none
          let moved = 0
          const refused = { ...noRefusals }
          if (Either.isLeft(dialer)) {
            for (const contact of due) {
              yield* store.updateContact(organizationId, contact.id, {
                status: "failed",
                outcome: dialer.left
              })
            }
            delta = CampaignTally.combine(delta, CampaignTally.move("pending", "failed", due.length))
            yield* CampaignAttempts.tallyAndSettle(campaign, delta, at).pipe(withCampaigns)
            return { dials: [], moved: due.length, refused: noRefusals }
          }
          // the gates in `CallGates`' order, the Do not call list read once for every claimed number
          const listed = yield* doNotCall.listedAmong(
            organizationId,
            due.map((c) => c.phone_number)
          )
          const open: Array<Contact> = []
          for (const contact of due) {
            const gate = CallGates.beforeChannel(contact.phone_number, listed.has(contact.phone_number), at)
            if (gate._tag === "DoNotCall") {
              // a permanent refusal, no run
              yield* store.updateContact(organizationId, contact.id, {
                status: "skipped",
                outcome: doNotCallReason,
                next_attempt_at: null
              })
              delta = CampaignTally.combine(delta, CampaignTally.move("pending", "skipped"))
              yield* withCampaigns(
                Webhooks.enqueueCampaign(organizationId, "campaign.contact.skipped", {
                  campaign_id: campaign.id,
                  contact_id: contact.id,
                  phone_number: contact.phone_number,
                  reason: doNotCallReason
                })
              )
              moved++
              refused.do_not_call++
            } else if (gate._tag === "OutsideCallingHours") {
              // wait for the window, without holding the others up
              yield* store.updateContact(organizationId, contact.id, { next_attempt_at: gate.retryAt })
              moved++
              refused.calling_hours++
            } else if (open.length < room) {
              // past `room` the rest stay pending, their locks released when this transaction ends
              open.push(contact)
            }
          }
          // outbound channels, for the open contacts at once: exact across processes; the first refused
          // waits the Retry-After, the ones after it stay pending
          const { agent, definition, fromNumber } = dialer.right
          const holds = yield* Effect.forEach(open, () =>
            Effect.map(Effect.provideService(uuidV4, SecureRandom, random), (reservationId) =>
              CallGates.channelHold(organizationId, reservationId, agent, at)
            )
          )
          const decision = yield* channels.reserveBatch(organizationId, holds, capacity, at)
          const placed = open.slice(0, decision.granted)
          const created = yield* runs.insertMany(
            placed.map((contact, i) => contactRun(campaign, contact, definition, holds[i]!.id)),
            at
          )
          // answered in no particular order: each run is its contact's by the channel reservation it holds
          const runOf = new Map(created.map((run) => [run.channel_reservation_id, run]))
          const started = placed.map((contact, i) => ({ contact, run: runOf.get(holds[i]!.id)! }))
          const dials = started.map(({ run }) => ({ run, agent, definition, fromNumber }))
          yield* store.startAttempts(
            organizationId,
            started.map(({ contact, run }) => ({ id: contact.id, runId: run.workflow_run_id })),
            owner,
            settings.leaseSeconds
          )
          delta = CampaignTally.combine(delta, {
            ...CampaignTally.move("pending", "in_progress", placed.length),
            attempts: placed.length
          })
          moved += placed.length
          const waiting = open[decision.granted]
          if (waiting !== undefined && decision.retryAfterSeconds !== null) {
            yield* store.updateContact(organizationId, waiting.id, {
              next_attempt_at: new Date(at.getTime() + decision.retryAfterSeconds * 1000)
            })
            moved++
            refused.channels++
          }
          yield* CampaignAttempts.tallyAndSettle(campaign, delta, at).pipe(withCampaigns)
          return { dials, moved, refused }
        })
      )
  })

const contactRun = (
  campaign: Campaign,
  contact: Contact,
  definition: AgentDefinition,
  reservationId: string
) =>
  newRun({
    workflow_id: definition.agent_id,
    agent_definition_id: definition.id,
    organization_id: campaign.organization_id,
    mode: "phone",
    status: "queued",
    phone_number: contact.phone_number,
    initial_context: { ...contact.initial_context, phone_number: contact.phone_number },
    campaign_id: campaign.id,
    channel_reservation_id: reservationId
  })
