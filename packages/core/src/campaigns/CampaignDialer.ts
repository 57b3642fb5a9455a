import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { CallEvents } from "../calls/CallEvents.js"
import { backgroundSpan, untraced } from "../observability/BackgroundSpans.js"
import { dialerClaimed } from "../observability/OperationalEvents.js"
import { uuidV4 } from "../randomness/SecureRandom.js"
import { CampaignStore } from "./CampaignStore.js"
import * as DialerClaim from "./DialerClaim.js"
import * as DialerDials from "./DialerDials.js"
import * as LeaseRecovery from "./LeaseRecovery.js"

export {
  agentUnavailableReason,
  doNotCallReason,
  noCallerIdReason,
  phoneNumberUnavailableReason
} from "./DialerClaim.js"
export { leaseExpiredMessage } from "./LeaseRecovery.js"

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

/**
 * The dialer of one process, known to the database by `owner` (its leases carry it): `round` claims and
 * dials (`DialerClaim`, then `DialerDials`), `heartbeat` renews its leases, `recover` takes back the
 * leases of processes that stopped (`LeaseRecovery`). Every lease is on the store's clock.
 */
export const make = (owner: string, settings: DialerSettings = defaults) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const events = yield* CallEvents
    const claim = yield* DialerClaim.make(owner, settings)
    const dial = yield* DialerDials.makeClaimDialer
    const recover = yield* LeaseRecovery.make(settings.recoveryBatch)

    /**
     * One round: each running campaign with work (see `CampaignStore.running`), the least recently visited
     * first, gets a claim, and its calls are handed to telephony once the claim committed. The poll is
     * untraced; a round that visits campaigns is one `CampaignDialer.round` trace, a
     * `CampaignDialer.claim` and a `CampaignDialer.dial` span per campaign beneath.
     */
    const round = Effect.gen(function* () {
      const now = new Date(yield* Clock.currentTimeMillis)
      const visited = yield* untraced(
        store.running(now, settings.campaignsPerRound, settings.campaignsPerOrganization)
      )
      if (visited.length === 0) return 0
      return yield* Effect.gen(function* () {
        let progress = 0
        for (const campaign of visited) {
          // in turn with calls' events (`CallEvents.inTurn`): a claim waits behind the ends already
          // waiting, as it would in the pool, and so finds the room they leave, not a trickle of it
          const { dials, moved, refused } = yield* events.inTurn(claim(campaign)).pipe(
            Effect.withSpan("CampaignDialer.claim", {
              captureStackTrace: false,
              attributes: { campaign_id: campaign.id }
            })
          )
          yield* dialerClaimed(campaign.organization_id, campaign.id, dials.length, moved, refused)
          yield* dial(campaign, dials).pipe(
            Effect.withSpan("CampaignDialer.dial", {
              captureStackTrace: false,
              attributes: { campaign_id: campaign.id, dials: dials.length }
            })
          )
          progress += moved
        }
        return progress
      }).pipe(backgroundSpan("CampaignDialer.round", { campaigns: visited.length }))
    })

    /**
     * Renews this process's leases for `leaseSeconds`, on the store's clock. Untraced: one statement every
     * `heartbeatSeconds` whether or not a call is live, which would otherwise be a root trace each time.
     */
    const heartbeat = untraced(store.renewLeases(owner, settings.leaseSeconds))

    return { round, heartbeat, recover }
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
