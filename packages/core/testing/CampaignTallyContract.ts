import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { CampaignId, ContactId, ContactStatus } from "../src/campaigns/Campaign.js"
import type { AttemptEndWrite } from "../src/campaigns/CampaignStore.js"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import * as CampaignTally from "../src/campaigns/CampaignTally.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Stores } from "../src/storage/Stores.js"
import { Transactions } from "../src/storage/Transactions.js"
import * as Fixtures from "./Fixtures.js"

const at = (offsetSeconds: number) => new Date(Fixtures.epoch.getTime() + offsetSeconds * 1000)

/** A fresh organization with a running campaign of `n` contacts, all tallied pending. */
const runningWith = (n: number) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const org = yield* Fixtures.organization()
    const { agent } = yield* Fixtures.agent(org.id)
    const campaign = yield* store.insert(Fixtures.newCampaign(org.id, agent.id, { status: "running" }), at(0))
    const numbers = Array.from({ length: n }, (_, i) => ({
      phone_number: `+4850030${String(i).padStart(4, "0")}`,
      initial_context: {}
    }))
    const { added } = yield* store.addContacts(org.id, campaign.id, numbers, at(0))
    yield* store.tally(org.id, campaign.id, CampaignTally.move(null, "pending", n))
    return { org, agent, campaign, contacts: added }
  })

/** One call's end that moves its contact to `status` (no outcome, no retry) and adds `delta`. */
const endTo = (
  organizationId: OrganizationId,
  campaignId: CampaignId,
  contactId: ContactId,
  status: ContactStatus,
  delta: CampaignTally.TallyDelta
): AttemptEndWrite => ({
  organization_id: organizationId,
  campaign_id: campaignId,
  contact_id: contactId,
  move: { status, outcome: null, next_attempt_at: null },
  delta
})

/** The totals every read of the campaign answers: they must all be the same. */
const totalsByEveryRead = (organizationId: OrganizationId, id: CampaignId) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const transactions = yield* Transactions
    const inTransaction = <A>(read: Effect.Effect<Option.Option<A>>) =>
      Effect.map(transactions.run(read), Option.getOrThrow)
    const listed = (yield* store.list(organizationId, { page: 1, limit: 100 })).items.find((c) => c.id === id)
    return [
      Option.getOrThrow(yield* store.find(organizationId, id)).totals,
      listed!.totals,
      (yield* inTransaction(store.findForClaim(organizationId, id))).totals,
      (yield* inTransaction(store.findForUpdate(organizationId, id))).totals,
      Option.getOrThrow(yield* store.update(organizationId, id, { name: "Renamed" })).totals
    ]
  })

/**
 * The campaign part of the storage contract that concerns the dialer's speed: totals added without
 * holding the campaign (calls' ends), the claim's holds, leases on the store's clock, the runs of a claim
 * inserted and checked at once. `storeContract` runs it against every adapter.
 */
export const campaignTallyContract = (it: Vitest.MethodsNonLive<Stores>) =>
  describe("campaign tallies, claims and leases", () => {
    it.effect(
      "answer totals added concurrently and held alike, from every read, before and after a claim",
      () =>
        Effect.gen(function* () {
          const store = yield* CampaignStore
          const transactions = yield* Transactions
          const { org, campaign, contacts } = yield* runningWith(3)
          // a claim starts three attempts (held), then two calls end (not held)
          yield* transactions.run(
            Effect.gen(function* () {
              yield* store.findForClaim(org.id, campaign.id)
              yield* store.tally(org.id, campaign.id, {
                ...CampaignTally.move("pending", "in_progress", 3),
                attempts: 3
              })
            })
          )
          for (const [i, to] of (["completed", "pending"] as const).entries()) {
            yield* transactions.run(
              store.endAttempts([
                endTo(
                  org.id,
                  campaign.id,
                  contacts[i]!.id,
                  to,
                  CampaignTally.attemptEnded(CampaignTally.move("in_progress", to), 30, 120)
                )
              ])
            )
          }
          const expected = {
            counts: { pending: 1, in_progress: 1, completed: 1, failed: 0, skipped: 0 },
            attempts: 3,
            duration_seconds: 60,
            cost: 240
          }
          // every read, among them the holds that fold the tallies into the campaign's row, then again
          for (const totals of yield* totalsByEveryRead(org.id, campaign.id)) expect(totals).toEqual(expected)
          for (const totals of yield* totalsByEveryRead(org.id, campaign.id)) expect(totals).toEqual(expected)
          // a tally rolled back with its transaction counts for nothing
          const undone = yield* transactions
            .run(
              Effect.zipRight(
                store.endAttempts([
                  endTo(
                    org.id,
                    campaign.id,
                    contacts[2]!.id,
                    "failed",
                    CampaignTally.move("in_progress", "failed")
                  )
                ]),
                Effect.fail("undone" as const)
              )
            )
            .pipe(Effect.flip)
          expect(undone).toBe("undone")
          expect(Option.getOrThrow(yield* store.find(org.id, campaign.id)).totals).toEqual(expected)
        })
    )

    it.effect("visit a running campaign whose calls' ends, not yet folded, left nothing to dial", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, campaign, contacts } = yield* runningWith(1)
        yield* store.tally(org.id, campaign.id, CampaignTally.move("pending", "in_progress"))
        yield* store.updateContact(org.id, contacts[0]!.id, { status: "in_progress" })
        const before = yield* store.running(at(1), 1000, 1000)
        expect(before.some((c) => c.id === campaign.id)).toBe(false)
        yield* store.endAttempts([
          endTo(
            org.id,
            campaign.id,
            contacts[0]!.id,
            "completed",
            CampaignTally.move("in_progress", "completed")
          )
        ])
        const visited = (yield* store.running(at(2), 1000, 1000)).find((c) => c.id === campaign.id)
        expect(visited?.totals.counts).toEqual({ ...CampaignTally.zeroCounts, completed: 1 })
      })
    )

    it.effect("start leases on the store's clock, as renewals and expiries are, whatever the caller's", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const runs = yield* RunStore
        const { org, agent, campaign, contacts } = yield* runningWith(2)
        const owner = `dialer-${yield* Fixtures.unique()}`
        const run = () =>
          runs.insert({ ...Fixtures.newRun(org.id, agent.id), campaign_id: campaign.id }, at(1))
        const [long, none] = [yield* run(), yield* run()]
        yield* store.startAttempts(org.id, [{ id: contacts[0]!.id, runId: long.workflow_run_id }], owner, 600)
        yield* store.startAttempts(org.id, [{ id: contacts[1]!.id, runId: none.workflow_run_id }], owner, 0)
        // a lease of 0 seconds has run out on the store's clock; one of 10 minutes has not
        const expired = (yield* store.expiredLeases(10_000)).filter((c) => c.campaign_id === campaign.id)
        expect(expired.map((c) => c.id)).toEqual([contacts[1]!.id])
        const leaseOf = (i: number) =>
          Effect.map(store.findContact(org.id, campaign.id, contacts[i]!.id), (c) =>
            Option.getOrThrow(c).lease_expires_at!.getTime()
          )
        const started = yield* leaseOf(0)
        // renewing for 600 seconds on the same clock never moves the lease back
        expect(yield* store.renewLeases(owner, 600)).toBe(2)
        expect(yield* leaseOf(0)).toBeGreaterThanOrEqual(started)
        expect(yield* leaseOf(1)).toBeGreaterThanOrEqual(started)
      })
    )

    it.effect(
      "read a call's end's contact with its campaign, and write its move with its tally, in one step",
      () =>
        Effect.gen(function* () {
          const store = yield* CampaignStore
          const runs = yield* RunStore
          const transactions = yield* Transactions
          const { org, agent, campaign, contacts } = yield* runningWith(2)
          const stranger = yield* runningWith(0)
          const run = yield* runs.insert(
            { ...Fixtures.newRun(org.id, agent.id), campaign_id: campaign.id },
            at(1)
          )
          const other = yield* runs.insert(
            { ...Fixtures.newRun(org.id, agent.id), campaign_id: campaign.id },
            at(1)
          )
          yield* store.startAttempts(
            org.id,
            [{ id: contacts[1]!.id, runId: run.workflow_run_id }],
            "owner",
            600
          )
          yield* store.tally(org.id, campaign.id, {
            ...CampaignTally.move("pending", "in_progress"),
            attempts: 1
          })
          const runKey = (organizationId: OrganizationId, id: typeof run.workflow_run_id) => ({
            organization_id: organizationId,
            workflow_run_id: id
          })
          const [found, ...more] = yield* transactions.run(
            store.findAttemptsForEnd([runKey(org.id, run.workflow_run_id)])
          )
          expect(more).toEqual([])
          expect(found!.contact).toEqual(
            Option.getOrThrow(yield* store.findContact(org.id, campaign.id, contacts[1]!.id))
          )
          // the campaign as `find` answers it, without its totals (a call's end does not read them)
          const { totals: _, ...withoutTotals } = Option.getOrThrow(yield* store.find(org.id, campaign.id))
          expect(found!.campaign).toEqual(withoutTotals)
          // a run no contact's attempt is, or another organization's view of it: none
          expect(yield* store.findAttemptsForEnd([runKey(org.id, other.workflow_run_id)])).toEqual([])
          expect(yield* store.findAttemptsForEnd([runKey(stranger.org.id, run.workflow_run_id)])).toEqual([])
          const delta = CampaignTally.attemptEnded(CampaignTally.move("in_progress", "completed"), 30, 120)
          yield* transactions.run(
            store.endAttempts([endTo(org.id, campaign.id, contacts[1]!.id, "completed", delta)])
          )
          const moved = Option.getOrThrow(yield* store.findContact(org.id, campaign.id, contacts[1]!.id))
          expect([moved.status, moved.lease_owner, moved.lease_expires_at]).toEqual(["completed", null, null])
          const expected = {
            counts: { pending: 1, in_progress: 0, completed: 1, failed: 0, skipped: 0 },
            attempts: 1,
            duration_seconds: 30,
            cost: 120
          }
          for (const totals of yield* totalsByEveryRead(org.id, campaign.id)) expect(totals).toEqual(expected)
          // rolled back with its transaction: neither the move nor the tally
          const undone = yield* transactions
            .run(
              Effect.zipRight(
                store.endAttempts([
                  endTo(
                    org.id,
                    campaign.id,
                    contacts[0]!.id,
                    "failed",
                    CampaignTally.move("pending", "failed")
                  )
                ]),
                Effect.fail("undone" as const)
              )
            )
            .pipe(Effect.flip)
          expect(undone).toBe("undone")
          expect(
            Option.getOrThrow(yield* store.findContact(org.id, campaign.id, contacts[0]!.id)).status
          ).toBe("pending")
          expect(Option.getOrThrow(yield* store.find(org.id, campaign.id)).totals).toEqual(expected)
        })
    )

    it.effect("insert a claim's runs at once, and tell which are still queued in a running campaign", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const runs = yield* RunStore
        const { org, agent, campaign } = yield* runningWith(0)
        const stranger = yield* runningWith(0)
        const numbers = ["+48500400001", "+48500400002", "+48500400003"]
        const created = yield* runs.insertMany(
          numbers.map((phone_number) => ({
            ...Fixtures.newRun(org.id, agent.id),
            phone_number,
            campaign_id: campaign.id
          })),
          at(2)
        )
        expect(created.map((r) => r.phone_number).sort()).toEqual(numbers)
        expect(new Set(created.map((r) => r.workflow_run_id)).size).toBe(3)
        for (const run of created) {
          expect(Option.getOrThrow(yield* runs.find(org.id, run.workflow_run_id))).toEqual(run)
        }
        expect(yield* runs.insertMany([], at(2))).toEqual([])
        const [first, second, third] = created
        yield* runs.update(org.id, second!.workflow_run_id, { status: "ringing" })
        const ids = created.map((r) => r.workflow_run_id)
        expect([...(yield* store.stillQueued(org.id, campaign.id, ids))].sort()).toEqual(
          [first!.workflow_run_id, third!.workflow_run_id].sort()
        )
        // another organization's campaign, or a campaign no longer running, has none of them
        expect((yield* store.stillQueued(stranger.org.id, stranger.campaign.id, ids)).size).toBe(0)
        yield* store.update(org.id, campaign.id, { status: "paused" })
        expect((yield* store.stillQueued(org.id, campaign.id, ids)).size).toBe(0)
        expect((yield* store.stillQueued(org.id, campaign.id, [])).size).toBe(0)
      })
    )
  })
