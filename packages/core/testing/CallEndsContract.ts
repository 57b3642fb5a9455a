import type { Vitest } from "@effect/vitest"
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ChannelStore } from "../src/calls/ChannelStore.js"
import type { Contact } from "../src/campaigns/Campaign.js"
import type { AttemptMove } from "../src/campaigns/CampaignStore.js"
import { CampaignStore } from "../src/campaigns/CampaignStore.js"
import * as CampaignTally from "../src/campaigns/CampaignTally.js"
import { MinorUnits } from "../src/money/Money.js"
import type { OrganizationId } from "../src/organizations/Organization.js"
import type { Run } from "../src/runs/Run.js"
import type { RunKey } from "../src/runs/RunStore.js"
import { RunStore } from "../src/runs/RunStore.js"
import type { Stores } from "../src/storage/Stores.js"
import { Transactions } from "../src/storage/Transactions.js"
import { UsageStore } from "../src/usage/UsageStore.js"
import { at } from "./ContractFixtures.js"
import * as Fixtures from "./Fixtures.js"

const keyOf = (run: Run): RunKey => ({
  organization_id: run.organization_id,
  workflow_run_id: run.workflow_run_id
})

/** The id of a run that existed and was erased: a key that finds nothing. */
const erasedRunId = (organizationId: OrganizationId) =>
  Effect.gen(function* () {
    const runs = yield* RunStore
    const { agent } = yield* Fixtures.agent(organizationId)
    const run = yield* runs.insert(Fixtures.newRun(organizationId, agent.id), at(0))
    yield* runs.remove(organizationId, run.workflow_run_id)
    return run.workflow_run_id
  })

const byId = <A extends { readonly workflow_run_id: number }>(rows: ReadonlyArray<A>) =>
  [...rows].sort((a, b) => a.workflow_run_id - b.workflow_run_id)

/** A running campaign of the organization, three attempts a contact, whose `n` contacts are each in one. */
const dialing = (organizationId: OrganizationId, n: number) =>
  Effect.gen(function* () {
    const dialed = yield* Fixtures.campaignInAttempts(organizationId, n, { max_attempts: 3 })
    yield* (yield* CampaignStore).tally(organizationId, dialed.campaign.id, {
      ...CampaignTally.move(null, "in_progress", n),
      attempts: n
    })
    return dialed
  })

const moved = (status: AttemptMove["status"], outcome: string | null = null, next: Date | null = null) => ({
  status,
  outcome,
  next_attempt_at: next
})

/**
 * The storage contract for calls' ends taken together (several calls' ends in one transaction, each
 * operation one step whatever the batch): runs held and ended, channels freed, usage recorded, campaigns'
 * attempts read and written; every key scoped to its own organization. `storeContract` runs it against
 * every adapter.
 */
export const callEndsContract = (it: Vitest.MethodsNonLive<Stores>) =>
  describe("calls' ends taken together", () => {
    it.effect("hold and end the runs named, each within its own organization", () =>
      Effect.gen(function* () {
        const runs = yield* RunStore
        const transactions = yield* Transactions
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: theirs } = yield* Fixtures.agent(other.id)
        const live = { status: "in_progress" as const, channel_reservation_id: "held" }
        const [a, b, c] = yield* runs.insertMany(
          [1, 2, 3].map(() => Fixtures.newRun(org.id, agent.id, live)),
          at(0)
        )
        const stranger = yield* runs.insert(Fixtures.newRun(other.id, theirs.id, live), at(0))
        const gone = yield* erasedRunId(org.id)
        // two organizations' runs, keys naming a run under another organization, a run that is no more
        const keys: ReadonlyArray<RunKey> = [
          keyOf(c!),
          keyOf(stranger),
          keyOf(a!),
          { organization_id: org.id, workflow_run_id: stranger.workflow_run_id },
          { organization_id: other.id, workflow_run_id: b!.workflow_run_id },
          { organization_id: org.id, workflow_run_id: gone }
        ]
        const held = yield* transactions.run(runs.findManyForUpdate(keys))
        expect(byId(held)).toEqual(byId([a!, c!, stranger]))
        expect(yield* runs.findManyForUpdate([])).toEqual([])

        const end = (key: RunKey, seconds: number) => ({
          ...key,
          status: "completed" as const,
          duration_seconds: seconds,
          cost: MinorUnits.make(seconds * 4 - 50),
          model_cost: MinorUnits.make(seconds),
          analysis_status: seconds > 10 ? ("pending" as const) : ("skipped" as const),
          ended_at: new Date(at(seconds).getTime() + 123)
        })
        const ended = yield* transactions.run(runs.endMany(keys.map((key, i) => end(key, 10 * (i + 1)))))
        const expected = [
          { ...c!, ...end(keyOf(c!), 10), channel_reservation_id: null },
          { ...stranger, ...end(keyOf(stranger), 20), channel_reservation_id: null },
          { ...a!, ...end(keyOf(a!), 30), channel_reservation_id: null }
        ]
        expect(byId(ended)).toEqual(byId(expected))
        for (const run of expected) {
          expect(yield* runs.find(run.organization_id, run.workflow_run_id)).toEqual(Option.some(run))
        }
        // the run named only under another organization is as it was
        expect(yield* runs.find(org.id, b!.workflow_run_id)).toEqual(Option.some(b!))
        expect(Option.isNone(yield* runs.find(org.id, gone))).toBe(true)
        expect(yield* runs.endMany([])).toEqual([])
      })
    )

    it.effect("free the channels named, each of its own organization, and count them", () =>
      Effect.gen(function* () {
        const channels = yield* ChannelStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const reservation = (organizationId: OrganizationId, name: string) => ({
          id: `${organizationId}-${name}`,
          organization_id: organizationId,
          reserved_at: Fixtures.epoch,
          expires_at: at(600),
          expected_release_at: null
        })
        const [a, b, c] = [reservation(org.id, "a"), reservation(org.id, "b"), reservation(org.id, "c")]
        const theirs = reservation(other.id, "x")
        for (const r of [a, b, c, theirs]) {
          expect((yield* channels.reserve(r, 10, Fixtures.epoch))._tag).toBe("Granted")
        }
        const released = yield* channels.releaseMany([
          { organization_id: org.id, id: c.id },
          { organization_id: other.id, id: theirs.id },
          { organization_id: org.id, id: a.id },
          { organization_id: org.id, id: theirs.id },
          { organization_id: other.id, id: b.id },
          { organization_id: org.id, id: `${org.id}-never-held` }
        ])
        expect(released).toBe(3)
        expect(yield* channels.held(org.id, Fixtures.epoch)).toEqual([b])
        expect(yield* channels.held(other.id, Fixtures.epoch)).toEqual([])
        expect(yield* channels.releaseMany([{ organization_id: org.id, id: a.id }])).toBe(0)
        expect(yield* channels.releaseMany([])).toBe(0)
        expect(yield* channels.held(org.id, Fixtures.epoch)).toEqual([b])
      })
    )

    it.effect("record the lines of several runs, keeping a line a run has already", () =>
      Effect.gen(function* () {
        const usage = yield* UsageStore
        const runs = yield* RunStore
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const { agent } = yield* Fixtures.agent(org.id)
        const { agent: theirs } = yield* Fixtures.agent(other.id)
        const [a, b, c, d] = yield* runs.insertMany(
          [1, 2, 3, 4].map(() => Fixtures.newRun(org.id, agent.id)),
          at(0)
        )
        const stranger = yield* runs.insert(Fixtures.newRun(other.id, theirs.id), at(0))
        const line = (run: Run, seconds: number) => ({
          organization_id: run.organization_id,
          run_id: run.workflow_run_id,
          agent_id: run.workflow_id,
          mode: "phone",
          kind: "call" as const,
          prompt_tokens: 0,
          completion_tokens: 0,
          duration_seconds: seconds,
          cost: MinorUnits.make(seconds * 2),
          currency: "PLN" as const,
          recorded_at: new Date(at(seconds).getTime() + 456)
        })
        const kept = yield* usage.record(line(a!, 5))
        yield* usage.recordMany([line(a!, 100), line(b!, 20), line(stranger, 40), line(c!, 30)])
        const listed = (yield* usage.list(org.id, {}, { page: 1, limit: 10 })).items
        const lineOf = (run: Run) => listed.filter((l) => l.run_id === run.workflow_run_id)
        expect(lineOf(a!)).toEqual([kept])
        for (const [run, seconds] of [
          [b!, 20],
          [c!, 30]
        ] as const) {
          const [recorded] = lineOf(run)
          expect(recorded).toEqual({ ...line(run, seconds), id: recorded!.id })
        }
        expect(listed).toHaveLength(3)
        expect(yield* usage.totals(org.id, {})).toEqual({ calls: 3, duration_seconds: 55, cost: 110 })
        expect(yield* usage.totals(other.id, {})).toEqual({ calls: 1, duration_seconds: 40, cost: 80 })
        // runs that have their lines, and an empty batch: no line more
        yield* usage.recordMany([line(b!, 1), line(c!, 2)])
        yield* usage.recordMany([])
        expect(yield* usage.totals(org.id, {})).toEqual({ calls: 3, duration_seconds: 55, cost: 110 })
        // a run named twice in one batch has one line
        yield* usage.recordMany([line(d!, 60), line(d!, 60)])
        expect(yield* usage.totals(org.id, {})).toEqual({ calls: 4, duration_seconds: 115, cost: 230 })
      })
    )

    it.effect("read the attempts of the runs named, with their campaigns, each within its organization", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const runs = yield* RunStore
        const transactions = yield* Transactions
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const first = yield* dialing(org.id, 3)
        const second = yield* dialing(org.id, 1)
        const theirs = yield* dialing(other.id, 1)
        // the first contact's attempt is tried again: its former run is not its last attempt any more
        const former = first.runs[0]!
        const again = yield* runs.insert(
          { ...Fixtures.newRun(org.id, first.agent.id), campaign_id: first.campaign.id },
          at(2)
        )
        yield* store.startAttempts(
          org.id,
          [{ id: first.contacts[0]!.id, runId: again.workflow_run_id }],
          "dialer",
          600
        )
        const found = yield* transactions.run(
          store.findAttemptsForEnd([
            keyOf(again),
            keyOf(first.runs[2]!),
            keyOf(second.runs[0]!),
            keyOf(theirs.runs[0]!),
            keyOf(former),
            { organization_id: other.id, workflow_run_id: first.runs[1]!.workflow_run_id },
            { organization_id: org.id, workflow_run_id: theirs.runs[0]!.workflow_run_id },
            { organization_id: org.id, workflow_run_id: yield* erasedRunId(org.id) }
          ])
        )
        // each contact as it is stored now (held, its last attempt the run named)
        const expected: Array<Contact> = []
        for (const c of [first.contacts[0]!, first.contacts[2]!, second.contacts[0]!, theirs.contacts[0]!]) {
          expected.push(Option.getOrThrow(yield* store.findContact(c.organization_id, c.campaign_id, c.id)))
        }
        const withoutTotals = (organizationId: OrganizationId, id: Contact["campaign_id"]) =>
          Effect.map(store.find(organizationId, id), (c) => {
            const { totals: _, ...campaign } = Option.getOrThrow(c)
            return campaign
          })
        const sorted = [...found].sort((x, y) => x.contact.id - y.contact.id)
        expect(sorted.map((f) => f.contact)).toEqual(expected.sort((x, y) => x.id - y.id))
        for (const { contact, campaign } of sorted) {
          // the campaign as `find` answers it, without its totals (calls' ends do not read them)
          expect(campaign).toEqual(yield* withoutTotals(contact.organization_id, contact.campaign_id))
        }
        expect(yield* store.findAttemptsForEnd([])).toEqual([])
      })
    )

    it.effect("move the contacts named and add each campaign's summed deltas to its totals", () =>
      Effect.gen(function* () {
        const store = yield* CampaignStore
        const transactions = yield* Transactions
        const org = yield* Fixtures.organization()
        const other = yield* Fixtures.organization()
        const first = yield* dialing(org.id, 3)
        const second = yield* dialing(org.id, 2)
        const theirs = yield* dialing(other.id, 1)
        const totals = (organizationId: OrganizationId, id: typeof first.campaign.id) =>
          Effect.map(store.find(organizationId, id), (c) => Option.getOrThrow(c).totals)
        const before = [
          yield* totals(org.id, first.campaign.id),
          yield* totals(org.id, second.campaign.id),
          yield* totals(other.id, theirs.campaign.id)
        ]
        const retryAt = new Date(at(900).getTime() + 789)
        const ended = (to: AttemptMove["status"], seconds: number) =>
          CampaignTally.attemptEnded(CampaignTally.move("in_progress", to), seconds, seconds * 4)
        const write = (
          dialed: typeof first,
          i: number,
          move: AttemptMove,
          delta: CampaignTally.TallyDelta
        ) => ({
          organization_id: dialed.campaign.organization_id,
          campaign_id: dialed.campaign.id,
          contact_id: dialed.contacts[i]!.id,
          move,
          delta
        })
        const writes = [
          write(first, 0, moved("completed"), ended("completed", 30)),
          write(first, 1, moved("pending", "busy", retryAt), ended("pending", 0)),
          write(second, 0, moved("failed", "no_answer"), ended("failed", 0)),
          write(first, 2, moved("completed"), ended("completed", 50)),
          write(theirs, 0, moved("skipped", "do_not_call"), ended("skipped", 7))
        ]
        // named under another organization: this organization's contact and campaign stay as they were
        const foreign = {
          ...write(second, 1, moved("completed"), ended("completed", 9)),
          organization_id: other.id
        }
        yield* transactions.run(store.endAttempts([...writes, foreign]))

        for (const { organization_id, campaign_id, contact_id, move } of writes) {
          const contact = Option.getOrThrow(
            yield* store.findContact(organization_id, campaign_id, contact_id)
          )
          expect(contact).toMatchObject({ ...move, lease_owner: null, lease_expires_at: null })
        }
        const untouched = Option.getOrThrow(
          yield* store.findContact(org.id, second.campaign.id, second.contacts[1]!.id)
        )
        expect(untouched).toMatchObject({ status: "in_progress", lease_owner: "dialer" })
        const sum = (deltas: ReadonlyArray<CampaignTally.TallyDelta>) =>
          deltas.reduce(CampaignTally.combine, CampaignTally.none)
        const after = [
          CampaignTally.combine(before[0]!, sum([writes[0]!.delta, writes[1]!.delta, writes[3]!.delta])),
          CampaignTally.combine(before[1]!, writes[2]!.delta),
          CampaignTally.combine(before[2]!, writes[4]!.delta)
        ]
        expect(after[0]).toEqual({
          counts: { pending: 1, in_progress: 0, completed: 2, failed: 0, skipped: 0 },
          attempts: 3,
          duration_seconds: 80,
          cost: 320
        })
        expect([
          yield* totals(org.id, first.campaign.id),
          yield* totals(org.id, second.campaign.id),
          yield* totals(other.id, theirs.campaign.id)
        ]).toEqual(after)
        // an empty batch moves nothing
        yield* store.endAttempts([])
        expect(yield* totals(org.id, first.campaign.id)).toEqual(after[0])
      })
    )
  })
