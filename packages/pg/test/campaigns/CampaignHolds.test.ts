import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import * as ShiftedClock from "@voice-agent-platform/core/clock/ShiftedClock.js"
import * as CampaignTally from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import * as DialerClaim from "@voice-agent-platform/core/campaigns/DialerClaim.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import type { RunId } from "@voice-agent-platform/core/runs/RunId.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import * as SecureRandom from "@voice-agent-platform/core/randomness/SecureRandom.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import { holdUntil, someoneWaitsForALock } from "../storage/LockWaits.js"
import {
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the campaign holds test")

const storage = PgStorage.layer.pipe(
  Layer.provideMerge(Layer.merge(layerFreshDatabase, layerSecretBox)),
  Layer.merge(SecureRandom.layerWebCrypto)
)

/** A running campaign of `n` contacts (+48, dialable at noon in Warsaw), tallied `status`. */
const running = (status: "pending" | "in_progress", n = 2) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const org = yield* Fixtures.organization({ outbound_channels: 10 })
    const { agent } = yield* Fixtures.agent(org.id)
    const campaign = yield* store.insert(
      Fixtures.newCampaign(org.id, agent.id, { status: "running" }),
      Fixtures.epoch
    )
    const numbers = Array.from({ length: n }, (_, i) => ({
      phone_number: `+4850050${String(i + 1).padStart(4, "0")}`,
      initial_context: {}
    }))
    const { added } = yield* store.addContacts(org.id, campaign.id, numbers, Fixtures.epoch)
    yield* store.tally(org.id, campaign.id, CampaignTally.move(null, status, n))
    // in progress: each contact's attempt is a run of the campaign
    const runIds: Array<RunId> = []
    if (status === "in_progress") {
      const runs = yield* RunStore
      for (const contact of added) {
        const run = yield* runs.insert(
          { ...Fixtures.newRun(org.id, agent.id), campaign_id: campaign.id },
          Fixtures.epoch
        )
        yield* store.startAttempts(org.id, [{ id: contact.id, runId: run.workflow_run_id }], "dialer", 600)
        runIds.push(run.workflow_run_id)
      }
    }
    return { org, campaign, contacts: added, runIds }
  })

/** Holds the campaign with `hold` in a transaction of its own until `release`; answers once it holds. */
const holding = (
  hold: Effect.Effect<unknown, never, CampaignStore>,
  release: Deferred.Deferred<void>,
  order: Array<string>,
  name: string
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const held = yield* Deferred.make<void>()
    const fiber = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          yield* hold
          order.push(`${name} holds`)
          yield* Deferred.succeed(held, undefined)
          yield* Deferred.await(release)
          order.push(`${name} ends`)
        })
      )
      .pipe(Effect.timeout("30 seconds"))
      .pipe(Effect.fork)
    yield* Deferred.await(held)
    return fiber
  })

/**
 * A call's end as the engine writes it: its attempt read (the campaign held against status changes), then
 * written, as a batch of one.
 */
const callEnds = (organizationId: OrganizationId, runId: RunId) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const [found, ...more] = yield* store.findAttemptsForEnd([
      { organization_id: organizationId, workflow_run_id: runId }
    ])
    if (found === undefined || more.length > 0) return yield* Effect.dieMessage("one attempt per run")
    yield* store.endAttempts([
      {
        organization_id: organizationId,
        campaign_id: found.campaign.id,
        contact_id: found.contact.id,
        move: { status: "completed", outcome: null, next_attempt_at: null },
        delta: CampaignTally.move("in_progress", "completed")
      }
    ])
  })

describe.skipIf(!reachable)("holds on a campaign (PostgreSQL)", () => {
  it.live("calls' ends go on while a claim holds the campaign; a status change waits for the claim", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* CampaignStore
      const { org, campaign, runIds } = yield* running("in_progress")
      const order: Array<string> = []
      const release = yield* Deferred.make<void>()
      const claim = yield* holding(store.findForClaim(org.id, campaign.id), release, order, "claim")
      // two ends, one after the other, both while the claim holds
      for (const n of [1, 2]) {
        const end = yield* Effect.fork(sql.withTransaction(callEnds(org.id, runIds[n - 1]!)))
        yield* Fiber.join(end).pipe(Effect.timeout("10 seconds"))
        order.push(`end ${n}`)
      }
      const pause = yield* sql
        .withTransaction(
          Effect.map(store.findForUpdate(org.id, campaign.id), () => {
            order.push("pause holds")
          })
        )
        .pipe(Effect.fork)
      // released only once the status change waits for the held campaign
      yield* someoneWaitsForALock.pipe(Effect.ensuring(Deferred.succeed(release, undefined)))
      yield* Fiber.join(claim)
      yield* Fiber.join(pause)
      expect(order).toEqual(["claim holds", "end 1", "end 2", "claim ends", "pause holds"])
      const totals = Option.getOrThrow(yield* store.find(org.id, campaign.id)).totals.counts
      expect(totals).toMatchObject({ pending: 0, in_progress: 0, completed: 2 })
    }).pipe(Effect.provide(storage))
  )

  it.live("a status change waits for a call's end in progress, which another end does not", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* CampaignStore
      const { org, campaign, runIds } = yield* running("in_progress")
      const order: Array<string> = []
      const release = yield* Deferred.make<void>()
      const end = yield* holding(callEnds(org.id, runIds[0]!), release, order, "end 1")
      yield* sql.withTransaction(callEnds(org.id, runIds[1]!)).pipe(Effect.timeout("5 seconds"))
      order.push("end 2")
      const cancel = yield* sql
        .withTransaction(
          Effect.map(store.findForUpdate(org.id, campaign.id), (found) => {
            order.push("cancel holds")
            return found
          })
        )
        .pipe(Effect.fork)
      // released only once the status change waits for the held campaign
      yield* someoneWaitsForALock.pipe(Effect.ensuring(Deferred.succeed(release, undefined)))
      yield* Fiber.join(end)
      // the cancel's hold folds both ends' tallies into the campaign's row
      const held = Option.getOrThrow(yield* Fiber.join(cancel))
      expect(order).toEqual(["end 1 holds", "end 2", "end 1 ends", "cancel holds"])
      expect(held.totals.counts.completed).toBe(2)
      const rows = yield* sql<{ readonly n: number }>`
        SELECT count(*)::int8 AS n FROM campaign_tallies WHERE campaign_id = ${campaign.id}`
      expect(rows[0]!.n).toBe(0)
    }).pipe(Effect.provide(storage))
  )

  it.live(
    "calls' ends hold their contacts in id order: waiting for one, they hold those before it, none after",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const store = yield* CampaignStore
        // random contact ids: the order the contacts were added in is not their ids' order
        const { org, campaign, contacts, runIds } = yield* running("in_progress", 20)
        const byId = contacts
          .map((contact, i) => ({ id: contact.id, runId: runIds[i]! }))
          .sort((a, b) => a.id - b.id)
        const middle = byId[9]!
        const release = yield* Deferred.make<void>()
        const first = yield* holdUntil(store.findContactByRunForUpdate(org.id, middle.runId), release)
        // the batch names its runs highest contact id first
        const ends = yield* sql
          .withTransaction(
            store.findAttemptsForEnd(
              [...byId].reverse().map(({ runId }) => ({ organization_id: org.id, workflow_run_id: runId }))
            )
          )
          .pipe(Effect.fork)
        // the contacts no transaction holds while the ends wait: exactly those after the one they wait for
        // (the first transaction lets go whatever happens, so that a failure here leaves nothing waiting)
        const free = yield* Effect.zipRight(
          someoneWaitsForALock,
          sql<{ readonly id: number }>`
          SELECT id FROM campaign_contacts WHERE organization_id = ${org.id} AND campaign_id = ${campaign.id}
          ORDER BY id FOR UPDATE SKIP LOCKED`
        ).pipe(Effect.ensuring(Deferred.succeed(release, undefined)))
        yield* Fiber.join(first)
        const found = yield* Fiber.join(ends).pipe(Effect.timeout("10 seconds"))
        expect(free.map((row) => row.id)).toEqual(byId.slice(10).map((contact) => contact.id))
        expect(found.map((end) => end.contact.id).sort((a, b) => a - b)).toEqual(
          byId.map((contact) => contact.id)
        )
      }).pipe(Effect.provide(storage))
  )

  it.live("a claim starts its leases on the database's clock, not on a dialer's clock that lags", () =>
    Effect.gen(function* () {
      const store = yield* CampaignStore
      const { org, campaign } = yield* running("pending")
      const claim = yield* DialerClaim.make("lagging-dialer", { claimBatch: 10, leaseSeconds: 60 })
      // the dialer's clock years behind the database's (noon in Warsaw, in 2020) for the claim only; the
      // database is made and dropped on the real clock (its teardown waited on a test clock)
      const { dials } = yield* claim(campaign).pipe(
        Effect.withClock(ShiftedClock.startingAt(new Date("2020-02-10T11:00:00Z")))
      )
      expect(dials).toHaveLength(2)
      const contacts = (yield* store.listContacts(org.id, campaign.id, {}, { page: 1, limit: 10 })).items
      const [databaseNow] = yield* (yield* SqlClient.SqlClient)<{ readonly now: Date }>`SELECT now() AS now`
      for (const contact of contacts) {
        expect(contact).toMatchObject({ status: "in_progress", lease_owner: "lagging-dialer" })
        // a minute from the database's now: no other process takes these calls back meanwhile
        expect(contact.lease_expires_at!.getTime()).toBeGreaterThan(databaseNow!.now.getTime() + 30_000)
      }
      const expired = yield* store.expiredLeases(1000)
      expect(expired.filter((c) => c.campaign_id === campaign.id)).toEqual([])
    }).pipe(Effect.provide(storage))
  )
})
