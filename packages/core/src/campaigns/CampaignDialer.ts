import { Clock, Duration, Effect, Either, Layer, Metric, Option, Schedule } from "effect"
import { callsPlaced, dialerClaimed } from "../observability/OperationalEvents.js"
import type { Agent, AgentDefinition } from "../agents/Agent.js"
import { AgentStore } from "../agents/AgentStore.js"
import { CallEvents } from "../calls/CallEvents.js"
import * as CallGates from "../calls/CallGates.js"
import { ChannelStore } from "../calls/ChannelStore.js"
import { Telephony } from "../calls/Telephony.js"
import { DoNotCallStore } from "../do-not-call/DoNotCallStore.js"
import { OrganizationStore } from "../organizations/OrganizationStore.js"
import { PhoneNumberStore } from "../phone-numbers/PhoneNumberStore.js"
import { SecureRandom, uuidV4 } from "../randomness/SecureRandom.js"
import type { Run } from "../runs/Run.js"
import { isLive } from "../runs/Run.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import * as InitialContextTemplate from "../templates/InitialContextTemplate.js"
import * as Webhooks from "../webhooks/Webhooks.js"
import * as WithdrawnCalls from "./WithdrawnCalls.js"
import { WebhookStore } from "../webhooks/WebhookStore.js"
import type { Campaign, Contact } from "./Campaign.js"
import * as CampaignAttempts from "./CampaignAttempts.js"
import { CampaignStore } from "./CampaignStore.js"
import * as CampaignTally from "./CampaignTally.js"
import type { TallyDelta } from "./CampaignTally.js"

/** The dialer's intervals and batch sizes; `docs/limits.md` lists them with these defaults. */
export interface DialerSettings {
  /** Pause between rounds when a round found nothing to dial. */
  readonly idleMillis: number
  /** How long a claimed contact's lease lasts without renewal: a dead process's calls return within it. */
  readonly leaseSeconds: number
  /** How often the live process renews its leases. */
  readonly heartbeatSeconds: number
  /** The most contacts one campaign claims (and so dials at most) in one transaction. */
  readonly claimBatch: number
  /** The most running campaigns one round visits. */
  readonly campaignsPerRound: number
  /** The most expired leases one recovery batch takes back (batches repeat while one comes back full). */
  readonly recoveryBatch: number
  /** The most campaigns of one organization one round visits. */
  readonly campaignsPerOrganization: number
}

export const defaults: DialerSettings = {
  idleMillis: 250,
  leaseSeconds: 20,
  heartbeatSeconds: 5,
  claimBatch: 100,
  campaignsPerRound: 50,
  recoveryBatch: 200,
  campaignsPerOrganization: 10
}

/** `last_error` of a contact the Do not call list holds back. */
export const doNotCallReason = "do_not_call"
/** `last_error` of contacts that cannot be dialed because the campaign's agent is gone or archived. */
export const agentUnavailableReason = "agent_unavailable"
/** `last_error` of contacts that cannot be dialed because the campaign's caller id is no longer the organization's. */
export const phoneNumberUnavailableReason = "phone_number_unavailable"
/** The log line of a call taken back because the process that dialed it stopped renewing its lease. */
export const leaseExpiredMessage =
  "The dialer that placed this campaign call stopped; the attempt counts as failed"

/** A call committed for dialing: telephony gets it once the transaction that created its run has ended. */
interface Dial {
  readonly run: Run
  readonly agent: Agent
  readonly definition: AgentDefinition
  readonly fromNumber: string | null
}

/** The dialer of one process, known to the database by `owner` (its leases carry it). */
export const make = (owner: string, settings: DialerSettings = defaults) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const transactions = yield* Transactions
    const agents = yield* AgentStore
    const organizations = yield* OrganizationStore
    const doNotCall = yield* DoNotCallStore
    const numbers = yield* PhoneNumberStore
    const channels = yield* ChannelStore
    const runs = yield* RunStore
    const telephony = yield* Telephony
    const events = yield* CallEvents
    const random = yield* SecureRandom
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const webhookStore = yield* WebhookStore
    const withCampaigns = <A, E>(
      effect: Effect.Effect<A, E, CampaignStore | WebhookStore | SecureRandom>
    ): Effect.Effect<A, E> =>
      effect.pipe(
        Effect.provideService(CampaignStore, store),
        Effect.provideService(WebhookStore, webhookStore),
        Effect.provideService(SecureRandom, random)
      )

    const withStores = <A, E>(
      effect: Effect.Effect<A, E, CampaignStore | WebhookStore | SecureRandom | RunStore | ChannelStore>
    ): Effect.Effect<A, E> =>
      withCampaigns(
        effect.pipe(Effect.provideService(RunStore, runs), Effect.provideService(ChannelStore, channels))
      )

    /**
     * The agent and caller id a campaign dials with, or why it cannot dial any more: its agent was
     * archived (or is gone), or its `from_phone_number_id` is no longer an active number of the
     * organization. Checked in `POST …/calls`'s order: the agent, the caller id, then the gates.
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
        }
        return Either.right({ agent: agent.value, definition: definition.value, fromNumber })
      })

    /**
     * One transaction for one campaign: the campaign is held (dialers of several processes take turns on
     * it), due contacts are claimed (`SKIP LOCKED`) up to what `max_concurrency` and the organization's
     * free channels leave, and each goes through the call gates (`CallGates`, `POST …/calls`'s order).
     * Do not call skips it; calling hours make it wait for its window; busy channels make it wait their
     * Retry-After; otherwise its channel is reserved, its run created and it moves to `in_progress` under
     * this process's lease, all in this transaction.
     */
    const claim = (running: Campaign) =>
      transactions.run(
        Effect.gen(function* () {
          const at = yield* now
          const found = yield* store.findForUpdate(running.organization_id, running.id)
          if (Option.isNone(found) || found.value.status !== "running") return { dials: [], moved: 0 }
          const campaign = found.value
          const organizationId = campaign.organization_id
          const organization = yield* organizations.find(organizationId)
          if (Option.isNone(organization)) return { dials: [], moved: 0 }
          const capacity = organization.value.outbound_channels
          const free = capacity - (yield* channels.held(organizationId, at)).length
          const room = Math.min(campaign.max_concurrency - campaign.totals.counts.in_progress, free)
          if (room <= 0) {
            yield* CampaignAttempts.tallyAndSettle(campaign, CampaignTally.none, at).pipe(withCampaigns)
            return { dials: [], moved: 0 }
          }
          // more than there is room for: the gates before the channel (Do not call, calling hours) need none
          const due = yield* store.claimDue(organizationId, campaign.id, at, settings.claimBatch)
          const dialer = yield* dialingAs(campaign)
          let delta: TallyDelta = CampaignTally.none
          let moved = 0
          if (Either.isLeft(dialer)) {
            for (const contact of due) {
              yield* store.updateContact(organizationId, contact.id, {
                status: "failed",
                outcome: dialer.left
              })
            }
            delta = CampaignTally.combine(delta, CampaignTally.move("pending", "failed", due.length))
            yield* CampaignAttempts.tallyAndSettle(campaign, delta, at).pipe(withCampaigns)
            return { dials: [], moved: due.length }
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
            } else if (gate._tag === "OutsideCallingHours") {
              // wait for the window, without holding the others up
              yield* store.updateContact(organizationId, contact.id, { next_attempt_at: gate.retryAt })
              moved++
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
          const dials: Array<Dial> = []
          const placed = open.slice(0, decision.granted)
          const started: Array<{ readonly id: Contact["id"]; readonly runId: Run["workflow_run_id"] }> = []
          for (const [i, contact] of placed.entries()) {
            const run = yield* runs.insert(newRun(campaign, contact, definition, holds[i]!.id), at)
            started.push({ id: contact.id, runId: run.workflow_run_id })
            dials.push({ run, agent, definition, fromNumber })
          }
          yield* store.startAttempts(
            organizationId,
            started,
            owner,
            new Date(at.getTime() + settings.leaseSeconds * 1000)
          )
          delta = CampaignTally.combine(delta, {
            ...CampaignTally.move("pending", "in_progress", placed.length),
            attempts: placed.length
          })
          moved += placed.length
          const refused = open[decision.granted]
          if (refused !== undefined && decision.retryAfterSeconds !== null) {
            yield* store.updateContact(organizationId, refused.id, {
              next_attempt_at: new Date(at.getTime() + decision.retryAfterSeconds * 1000)
            })
            moved++
          }
          yield* CampaignAttempts.tallyAndSettle(campaign, delta, at).pipe(withCampaigns)
          return { dials, moved }
        })
      )

    /**
     * Telephony dials after the commit, keyed by the run. A refused dial, or one that fails unexpectedly
     * (a defect), ends the attempt `failed` and frees its channel; the other dials of the batch go on.
     */
    const dial = ({ run, agent, definition, fromNumber }: Dial) => {
      const workflow = definition.workflow_definition
      const place = telephony.placeCall({
        run,
        agent,
        definition,
        from_phone_number: fromNumber,
        first_message: InitialContextTemplate.render(workflow.first_message, run.initial_context),
        system_prompt: InitialContextTemplate.render(workflow.system_prompt, run.initial_context)
      })
      // paused or canceled since the claim committed: the call is withdrawn, not started
      const wanted = withStores(WithdrawnCalls.stillWanted(run)).pipe(
        Effect.flatMap((yes) =>
          yes
            ? Effect.succeed(true)
            : transactions.run(Effect.flatMap(now, (at) => withStores(WithdrawnCalls.withdraw(run, at))))
        )
      )
      // counted, not logged one by one: the claim batch has its line (`dialerClaimed`)
      const placeCounted = Effect.zipLeft(place, Metric.increment(callsPlaced))
      return wanted.pipe(Effect.flatMap((yes) => (yes ? placeCounted : Effect.void))).pipe(
        Effect.catchAllCause(() =>
          events
            .report(run.organization_id, run.workflow_run_id, {
              type: "ended",
              status: "failed",
              duration_seconds: 0
            })
            .pipe(Effect.ignore)
        )
      )
    }

    /**
     * Takes back the attempts of a process that stopped renewing its leases, each ending `failed`: batches
     * of `recoveryBatch`, repeated while one comes back full; answers how many.
     */
    const recover = Effect.gen(function* () {
      let total = 0
      for (;;) {
        const expired = yield* store.expiredLeases(settings.recoveryBatch)
        for (const contact of expired) yield* recoverOne(contact)
        total += expired.length
        if (expired.length < settings.recoveryBatch) return total
      }
    })

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
            yield* CampaignAttempts.settle(campaign.value, current.value, "failed", 0, 0, yield* now).pipe(
              withCampaigns
            )
          })
        )
      })

    /**
     * One round: each running campaign with work (see `CampaignStore.running`), the least recently visited
     * first, gets a claim. Expired leases are taken back by `recover`, on a schedule of its own.
     */
    const round = Effect.gen(function* () {
      let progress = 0
      const visited = yield* store.running(
        yield* now,
        settings.campaignsPerRound,
        settings.campaignsPerOrganization
      )
      for (const campaign of visited) {
        const { dials, moved } = yield* claim(campaign)
        yield* dialerClaimed(campaign.organization_id, campaign.id, dials.length, moved)
        yield* Effect.forEach(dials, dial, { discard: true, concurrency: 16 })
        progress += moved
      }
      return progress
    })

    /** Renews this process's leases for `leaseSeconds`, on the store's clock. */
    const heartbeat = store.renewLeases(owner, settings.leaseSeconds)

    return { round, heartbeat, recover }
  })

const newRun = (
  campaign: Campaign,
  contact: Contact,
  definition: AgentDefinition,
  reservationId: string
) => ({
  workflow_id: definition.agent_id,
  agent_definition_id: definition.id,
  organization_id: campaign.organization_id,
  mode: "phone" as const,
  status: "queued" as const,
  name: null,
  phone_number: contact.phone_number,
  initial_context: { ...contact.initial_context, phone_number: contact.phone_number },
  gathered_context: {},
  duration_seconds: null,
  cost: null,
  currency: "PLN" as const,
  disposition: null,
  campaign_id: campaign.id,
  trigger_id: null,
  logs: [],
  sms: [],
  integration_deliveries: [],
  files: { recording: null, transcript: null },
  channel_reservation_id: reservationId,
  ended_at: null
})

/**
 * The dialer in the background, for as long as the layer lives: rounds back to back while they find work,
 * `idleMillis` apart when they do not; the lease heartbeat and the recovery of expired leases each in a
 * fiber of its own every `heartbeatSeconds` (so a long round never delays them); all on the `Clock` (a
 * test clock drives them). A round that fails unexpectedly is logged and the next goes on.
 */
export const layer = (settings: Partial<DialerSettings> = {}) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const bounds = { ...defaults, ...settings }
      const owner = `dialer-${yield* uuidV4}`
      const dialer = yield* make(owner, bounds)
      const logged = <A>(what: string, effect: Effect.Effect<A>) =>
        effect.pipe(Effect.catchAllCause((cause) => Effect.as(Effect.logError(what, cause), 0)))
      yield* logged("campaign dialer round failed", dialer.round).pipe(
        Effect.flatMap((progress) =>
          progress > 0 ? Effect.void : Effect.sleep(Duration.millis(bounds.idleMillis))
        ),
        Effect.forever,
        Effect.forkScoped
      )
      yield* logged("campaign lease heartbeat failed", dialer.heartbeat).pipe(
        Effect.repeat(Schedule.spaced(Duration.seconds(bounds.heartbeatSeconds))),
        Effect.forkScoped
      )
      yield* logged("campaign lease recovery failed", dialer.recover).pipe(
        Effect.repeat(Schedule.spaced(Duration.seconds(bounds.heartbeatSeconds))),
        Effect.forkScoped
      )
    })
  )
