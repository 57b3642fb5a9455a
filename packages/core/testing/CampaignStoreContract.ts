import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import * as CampaignTally from "../src/campaigns/CampaignTally.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Stores } from "../src/storage/Stores.js"
import { Transactions } from "../src/storage/Transactions.js"
import * as Fixtures from "./Fixtures.js"

const at = (offsetSeconds: number) => new Date(Fixtures.epoch.getTime() + offsetSeconds * 1000)
const page = (n: number, limit = 50) => ({ page: n, limit })
const numbers = (n: number, from = 100) =>
  Array.from({ length: n }, (_, i) => ({
    phone_number: `+4850000${String(from + i).padStart(4, "0")}`,
    initial_context: { i }
  }))

/** A fresh organization with a campaign of `n` contacts. */
const campaignWith = (n: number, fields: Parameters<typeof Fixtures.newCampaign>[2] = {}) =>
  Effect.gen(function* () {
    const store = yield* CampaignStore
    const org = yield* Fixtures.organization()
    const { agent } = yield* Fixtures.agent(org.id)
    const campaign = yield* store.insert(Fixtures.newCampaign(org.id, agent.id, fields), at(0))
    const { added } = yield* store.addContacts(org.id, campaign.id, numbers(n), at(0))
    return { org, agent, campaign, contacts: added }
  })

/** The campaign part of the storage contract; `storeContract` runs it against every adapter. */
export const campaignStoreContract = (it: Vitest.MethodsNonLive<Stores>) =>
  describe("campaigns", () => {
    it.effect("keep contacts once per number, in the order added, and totals only as tallied", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, campaign, contacts } = yield* campaignWith(3)
        expect(campaign.totals).toEqual({
          counts: CampaignTally.zeroCounts,
          attempts: 0,
          duration_seconds: 0,
          cost: 0
        })
        expect(campaign.retry_on).toEqual(["busy", "no_answer", "failed"])
        expect(contacts.map((c) => c.status)).toEqual(["pending", "pending", "pending"])
        const again = yield* store.addContacts(
          org.id,
          campaign.id,
          [...numbers(2, 101), ...numbers(1, 900)],
          at(1)
        )
        expect(again.duplicates).toBe(2)
        expect(again.added.map((c) => c.phone_number)).toEqual(["+48500000900"])
        const listed = yield* store.listContacts(org.id, campaign.id, {}, page(1))
        expect(listed.items.map((c) => c.phone_number)).toEqual([
          "+48500000100",
          "+48500000101",
          "+48500000102",
          "+48500000900"
        ])
        expect(listed.items[0]!.initial_context).toEqual({ i: 0 })
        // which numbers it has, in one lookup; another organization's campaign has none for it
        expect(
          yield* store.numbersAmong(org.id, campaign.id, ["+48500000100", "+48500000900", "+48500000555"])
        ).toEqual(new Set(["+48500000100", "+48500000900"]))
        expect(yield* store.numbersAmong(org.id, campaign.id, [])).toEqual(new Set())
        const stranger = yield* Fixtures.organization()
        expect(yield* store.numbersAmong(stranger.id, campaign.id, ["+48500000100"])).toEqual(new Set())

        yield* store.tally(org.id, campaign.id, CampaignTally.move(null, "pending", 4))
        yield* store.tally(
          org.id,
          campaign.id,
          CampaignTally.attemptEnded(
            CampaignTally.attemptMade(CampaignTally.move("pending", "completed")),
            42,
            150
          )
        )
        const totals = Option.getOrThrow(yield* store.find(org.id, campaign.id)).totals
        expect(totals).toEqual({
          counts: { pending: 3, in_progress: 0, completed: 1, failed: 0, skipped: 0 },
          attempts: 1,
          duration_seconds: 42,
          cost: 150
        })
      })
    )

    it.effect("draw contact ids at random, and keep the order added apart from them", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, campaign, contacts } = yield* campaignWith(20)
        const ids = contacts.map((c) => c.id)
        // counted ids would come out ascending; 20 random ones do so once in 20! (about 4·10^-19)
        expect(ids).not.toEqual([...ids].sort((a, b) => a - b))
        expect(new Set(ids).size).toBe(20)
        const { contacts: other } = yield* campaignWith(1)
        expect(other[0]!.added_order).toBeGreaterThan(contacts[19]!.added_order)
        const orders = contacts.map((c) => c.added_order)
        expect(orders).toEqual([...orders].sort((a, b) => a - b))
        const listed = yield* store.listContacts(org.id, campaign.id, {}, page(1))
        expect(listed.items.map((c) => c.id)).toEqual(ids)
        const report = yield* store.report(org.id, campaign.id, {}, page(2, 5), 20)
        expect(report.items.map((r) => r.contact.id)).toEqual(ids.slice(5, 10))
        const streamed = yield* store.reportAfter(org.id, campaign.id, contacts[9]!.added_order, 4)
        expect(streamed.map((r) => r.contact.id)).toEqual(ids.slice(10, 14))
        const due = yield* store.claimDue(org.id, campaign.id, at(1), 3)
        expect(due.map((c) => c.id)).toEqual(ids.slice(0, 3))
      })
    )

    it.effect("claim due contacts once across simultaneous transactions, never one that waits", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const transactions = yield* Transactions
        const { org, campaign, contacts } = yield* campaignWith(6)
        yield* store.updateContact(org.id, contacts[0]!.id, { next_attempt_at: at(3600) })
        const claim = (owner: string) =>
          transactions.run(
            Effect.gen(function* () {
              const due = yield* store.claimDue(org.id, campaign.id, at(10), 3)
              yield* Effect.forEach(due, (c) =>
                store.updateContact(org.id, c.id, {
                  status: "in_progress",
                  lease_owner: owner,
                  lease_expires_at: at(30)
                })
              )
              // hold the claim a moment, so that the other transaction runs meanwhile
              yield* Effect.yieldNow()
              return due.map((c) => c.id)
            })
          )
        const [a, b] = yield* Effect.all([claim("a"), claim("b")], { concurrency: 2 })
        expect(a.length + b.length).toBe(5)
        expect(new Set([...a, ...b]).size).toBe(5)
        expect([...a, ...b]).not.toContain(contacts[0]!.id)
        expect(yield* store.claimDue(org.id, campaign.id, at(10), 10)).toEqual([])
        const later = yield* store.claimDue(org.id, campaign.id, at(3600), 10)
        expect(later.map((c) => c.id)).toEqual([contacts[0]!.id])
      })
    )

    it.effect(
      "start the attempts of many contacts at once, each with its own run, in its organization only",
      () =>
        Effect.gen(function* () {
          const store = yield* CampaignStore
          const runs = yield* RunStore
          const { org, agent, campaign, contacts } = yield* campaignWith(3)
          const stranger = yield* campaignWith(1)
          yield* store.updateContact(org.id, contacts[1]!.id, {
            attempts: 1,
            outcome: "busy",
            next_attempt_at: at(5)
          })
          const runOf = () =>
            runs.insert({ ...Fixtures.newRun(org.id, agent.id), campaign_id: campaign.id }, at(6))
          const [first, second] = [yield* runOf(), yield* runOf()]
          yield* store.startAttempts(
            org.id,
            [
              { id: contacts[0]!.id, runId: first.workflow_run_id },
              { id: contacts[1]!.id, runId: second.workflow_run_id },
              // another organization's contact is not touched
              { id: stranger.contacts[0]!.id, runId: first.workflow_run_id }
            ],
            "dialer-x",
            30
          )
          yield* store.startAttempts(org.id, [], "dialer-x", 30)
          const listed = (yield* store.listContacts(org.id, campaign.id, {}, page(1))).items
          const started = {
            status: "in_progress",
            outcome: null,
            next_attempt_at: null,
            lease_owner: "dialer-x",
            // on the store's clock: see the campaign tallies' contract
            lease_expires_at: expect.any(Date)
          }
          expect(listed[0]).toMatchObject({ ...started, attempts: 1, last_run_id: first.workflow_run_id })
          expect(listed[1]).toMatchObject({ ...started, attempts: 2, last_run_id: second.workflow_run_id })
          expect(listed[2]).toMatchObject({ status: "pending", attempts: 0, last_run_id: null })
          const untouched = yield* store.findContact(
            stranger.org.id,
            stranger.campaign.id,
            stranger.contacts[0]!.id
          )
          expect(Option.getOrThrow(untouched)).toMatchObject({
            status: "pending",
            attempts: 0,
            last_run_id: null
          })
        })
    )

    it.effect("renew the leases of one owner, and find the ones that ran out", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, contacts } = yield* campaignWith(2)
        const owner = `dialer-${yield* Fixtures.unique()}`
        const other = `dialer-${yield* Fixtures.unique()}`
        // far in the past on any store's clock (a test clock or the database's), before other tests' leases
        const past = new Date("1960-01-01T00:00:00Z")
        const lease = (id: (typeof contacts)[number]["id"], who: string) =>
          store.updateContact(org.id, id, { status: "in_progress", lease_owner: who, lease_expires_at: past })
        yield* lease(contacts[0]!.id, owner)
        yield* lease(contacts[1]!.id, other)
        // renewed for a minute from the store's own now, whatever the caller's clock says
        expect(yield* store.renewLeases(owner, 60)).toBe(1)
        const expired = yield* store.expiredLeases(1000)
        const ours = expired.filter((c) => c.organization_id === org.id).map((c) => c.id)
        expect(ours).toEqual([contacts[1]!.id])
        const renewed = Option.getOrThrow(
          yield* store.findContact(org.id, contacts[0]!.campaign_id, contacts[0]!.id)
        )
        expect(renewed.lease_expires_at!.getTime()).toBeGreaterThan(past.getTime() + 60_000)
      })
    )

    it.effect("report each contact with its last run, and forget a deleted run", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const runs = yield* RunStore
        const { org, agent, campaign, contacts } = yield* campaignWith(2)
        const run = yield* runs.insert(
          {
            ...Fixtures.newRun(org.id, agent.id),
            campaign_id: campaign.id,
            status: "completed",
            gathered_context: { answer: "yes" },
            duration_seconds: 12,
            disposition: "interested"
          },
          at(1)
        )
        yield* store.updateContact(org.id, contacts[1]!.id, {
          status: "completed",
          attempts: 1,
          last_run_id: run.workflow_run_id
        })
        const found = yield* store.findContactByRunForUpdate(org.id, run.workflow_run_id)
        expect(Option.getOrThrow(found).id).toBe(contacts[1]!.id)
        const report = yield* store.report(org.id, campaign.id, {}, page(1), 2)
        expect(report.total_count).toBe(2)
        expect(report.items[0]!.run).toBeNull()
        expect(report.items[1]!.run).toEqual({
          status: "completed",
          disposition: "interested",
          duration_seconds: 12,
          gathered_context: { answer: "yes" }
        })
        const completed = yield* store.report(org.id, campaign.id, { status: "completed" }, page(1), 1)
        expect(completed.items.map((r) => r.contact.id)).toEqual([contacts[1]!.id])
        const after = yield* store.reportAfter(org.id, campaign.id, contacts[0]!.added_order, 10)
        expect(after.map((r) => r.contact.id)).toEqual([contacts[1]!.id])

        yield* runs.remove(org.id, run.workflow_run_id)
        yield* store.forgetRun(org.id, run.workflow_run_id)
        const erased = yield* store.report(org.id, campaign.id, { status: "completed" }, page(1), 1)
        expect(erased.items[0]!.run).toBeNull()
        expect(erased.items[0]!.contact.last_run_id).toBeNull()
      })
    )

    it.effect("skip the pending contacts, remove one, and scope everything to its organization", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, campaign, contacts } = yield* campaignWith(3)
        const stranger: OrganizationId = (yield* Fixtures.organization()).id
        expect(Option.isNone(yield* store.removeContact(stranger, campaign.id, contacts[0]!.id))).toBe(true)
        expect(Option.isNone(yield* store.findContact(stranger, campaign.id, contacts[0]!.id))).toBe(true)
        expect(yield* store.skipPending(stranger, campaign.id, "canceled")).toBe(0)
        const removed = yield* store.removeContact(org.id, campaign.id, contacts[0]!.id)
        expect(Option.getOrThrow(removed).phone_number).toBe(contacts[0]!.phone_number)
        expect(Option.isNone(yield* store.findContact(org.id, campaign.id, contacts[0]!.id))).toBe(true)
        yield* store.updateContact(org.id, contacts[1]!.id, { status: "in_progress" })
        expect(yield* store.skipPending(org.id, campaign.id, "canceled")).toBe(1)
        const skipped = Option.getOrThrow(yield* store.findContact(org.id, campaign.id, contacts[2]!.id))
        expect(skipped).toMatchObject({ status: "skipped", outcome: "canceled" })
      })
    )

    it.effect("list running campaigns of every organization", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const { org, campaign } = yield* campaignWith(0)
        const { campaign: idle } = yield* campaignWith(0)
        yield* store.update(org.id, campaign.id, {
          status: "running",
          started_at: new Date("2001-01-01T00:00:00Z")
        })
        const running = yield* store.running(at(0), 1000, 1000)
        expect(running.map((c) => c.id)).toContain(campaign.id)
        expect(running.map((c) => c.id)).not.toContain(idle.id)
        yield* store.update(org.id, campaign.id, { status: "completed" })
      })
    )

    it.effect("visit running campaigns with work, least recently visited first, a few per organization", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const org = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const running = (name: string, contacts: number, nextAttempt: Date | null) =>
          Effect.gen(function* () {
            const campaign = yield* store.insert(
              Fixtures.newCampaign(org.id, agent.id, { name, status: "running", started_at: at(0) }),
              at(0)
            )
            const { added } = yield* store.addContacts(org.id, campaign.id, numbers(contacts), at(0))
            yield* store.tally(org.id, campaign.id, CampaignTally.move(null, "pending", contacts))
            for (const c of added) yield* store.updateContact(org.id, c.id, { next_attempt_at: nextAttempt })
            return campaign.id
          })
        // started first, but with nothing due for an hour: retries far away, or outside calling hours
        const idle = [
          yield* running("idle 1", 2, at(3600)),
          yield* running("idle 2", 2, at(3600)),
          yield* running("idle 3", 1, at(3600))
        ]
        const due = [
          yield* running("due 1", 1, null),
          yield* running("due 2", 2, at(5)),
          yield* running("due 3", 1, null)
        ]
        const ofOrg = (
          campaigns: ReadonlyArray<{ readonly organization_id: OrganizationId; readonly id: number }>
        ) => campaigns.filter((c) => c.organization_id === org.id).map((c) => c.id)
        const first = ofOrg(yield* store.running(at(10), 1000, 2))
        expect(first.length).toBe(2)
        for (const id of first) expect(due).toContain(id)
        // the one left out comes first next time, then the least recently visited
        const second = ofOrg(yield* store.running(at(20), 1000, 2))
        expect(second.length).toBe(2)
        expect(second).toContain(due.find((id) => !first.includes(id)))
        for (const id of second) expect(due).toContain(id)
        const third = ofOrg(yield* store.running(at(30), 1000, 2))
        expect(third).toContain(first.find((id) => !second.includes(id)))
        // once due, the idle ones are visited too; one with nothing left to dial is visited to be settled
        const { org: other, campaign: settled } = yield* campaignWith(0, {
          status: "running",
          started_at: at(0)
        })
        const later = yield* store.running(at(3600), 1000, 10)
        expect(ofOrg(later).sort()).toEqual([...idle, ...due].sort())
        expect(later.filter((c) => c.organization_id === other.id).map((c) => c.id)).toEqual([settled.id])
        for (const id of [...idle, ...due]) yield* store.update(org.id, id, { status: "completed" })
        yield* store.update(other.id, settled.id, { status: "completed" })
      })
    )

    it.effect(
      "insert a campaign only under the quota of campaigns not yet ended, simultaneous ones too",
      () =>
        Effect.gen(function* () {
          const store = yield* CampaignStore
          const org = yield* Fixtures.organization()
          const { agent } = yield* Fixtures.agent(org.id)
          const within = (limit: number) =>
            store.insertWithin(Fixtures.newCampaign(org.id, agent.id), at(0), limit)
          const results = yield* Effect.all([within(2), within(2), within(2)], { concurrency: 3 })
          expect(results.filter(Option.isSome)).toHaveLength(2)
          expect(Option.isNone(yield* within(2))).toBe(true)
          const first = results.find(Option.isSome)!.value
          yield* store.update(org.id, first.id, { status: "completed" })
          expect(Option.isSome(yield* within(2))).toBe(true)
          expect((yield* store.list(org.id, page(1))).total_count).toBe(3)
        })
    )
  })
