import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { AgentStore } from "../../src/agents/AgentStore.js"
import type { CampaignId } from "../../src/campaigns/Campaign.js"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { CampaignStore } from "../../src/campaigns/CampaignStore.js"
import type { ImportRow } from "../../src/campaigns/ContactImport.js"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import { Telephony } from "../../src/calls/Telephony.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { DoNotCallList } from "../../src/do-not-call/DoNotCallList.js"
import { InMemory } from "../../src/index.js"
import type { OrganizationId } from "../../src/organizations/Organization.js"
import type { Run } from "../../src/runs/Run.js"
import { isLive } from "../../src/runs/Run.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(2)))
const recorded = InMemory.layer

// 12:00 in Warsaw (CET)
const warsawNoon = "2026-02-10T11:00:00.000Z"
// 22:30 in Warsaw, 16:30 in New York
const warsawNight = "2026-02-10T21:30:00.000Z"

const rows = (numbers: ReadonlyArray<string>): ReadonlyArray<ImportRow> =>
  numbers.map((phone_number, i) => ({ row: i + 1, phone_number, initial_context: { n: i } }))

/** Every run of the agent, whole (the list shows a summary), read a page at a time. */
const runsOf = (organizationId: OrganizationId, agentId: Run["workflow_id"]) =>
  Effect.gen(function* () {
    const store = yield* RunStore
    const all: Array<Run> = []
    for (let page = 1; ; page++) {
      const found = yield* store.list(organizationId, agentId, {}, { page, limit: 100 })
      for (const summary of found.items) {
        all.push(Option.getOrThrow(yield* store.find(organizationId, summary.workflow_run_id)))
      }
      if (page >= found.total_pages) return all
    }
  })

const campaignOf = (organizationId: OrganizationId, id: CampaignId) =>
  Effect.map(
    Effect.flatMap(CampaignStore, (s) => s.find(organizationId, id)),
    Option.getOrThrow
  )

describe("CampaignDialer", () => {
  it.effect(
    "dials a 1,000-contact campaign to the end within max_concurrency, per the retry policy and the Do not call list",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 20 })
        const campaigns = yield* Campaigns
        const numbers = Array.from({ length: 994 }, (_, i) => `+4850010${String(i).padStart(4, "0")}`)
        const listed = ["+48500200001", "+48500200002", "+48500200003"]
        for (const phone_number of listed) {
          yield* (yield* DoNotCallList).add(organization.id, { phone_number, reason: null })
        }
        // busy, no answer and failed in the simulated runtime
        const unlucky = ["+48500000486", "+48500000487", "+48500000488"]
        const { campaign } = yield* campaigns.create(organization.id, {
          name: "Thousand",
          agent: agent.public_id,
          max_concurrency: 7,
          retry: { max_attempts: 3, retry_delay_seconds: 30, retry_on: ["busy", "no_answer"] },
          contacts: rows([...numbers, ...listed, ...unlucky])
        })
        expect(campaign.totals.counts.pending).toBe(1000)
        yield* campaigns.act(organization.id, campaign.id, "start")
        const dialer = yield* CampaignDialer.make("test-dialer")
        const channels = yield* ChannelStore
        // the calls really placed: the organization's held channels (it has no other calls), not the
        // dialer's own in_progress counter, which could not show an overshoot
        let peak = 0
        for (let i = 0; i < 2000; i++) {
          yield* dialer.round
          const now = yield* campaignOf(organization.id, campaign.id)
          const at = yield* Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
          peak = Math.max(peak, (yield* channels.held(organization.id, at)).length)
          if (now.status === "completed") break
          yield* TestClock.adjust("1 second")
        }
        const done = yield* campaignOf(organization.id, campaign.id)
        expect(done.status).toBe("completed")
        expect(peak).toBeGreaterThan(1)
        expect(peak).toBeLessThanOrEqual(7)
        expect(done.totals.counts).toEqual({
          pending: 0,
          in_progress: 0,
          completed: 994,
          failed: 3,
          skipped: 3
        })
        const runs = (yield* runsOf(organization.id, agent.id)).filter((r) => r.campaign_id === campaign.id)
        expect(runs.every((r) => !isLive(r.status))).toBe(true)
        expect(done.totals.attempts).toBe(runs.length)
        // busy and no answer are tried three times, failed once (not in retry_on), listed numbers never
        const perNumber = new Map<string, number>()
        for (const run of runs) perNumber.set(run.phone_number!, (perNumber.get(run.phone_number!) ?? 0) + 1)
        expect(runs.length).toBe(994 + 3 + 3 + 1)
        expect(perNumber.get("+48500000486")).toBe(3)
        expect(perNumber.get("+48500000487")).toBe(3)
        expect(perNumber.get("+48500000488")).toBe(1)
        for (const number of listed) expect(perNumber.has(number)).toBe(false)
        const report = yield* campaigns.report(
          organization.id,
          campaign.id,
          { status: "skipped" },
          { page: 1, limit: 10 }
        )
        expect(report.page.items.map((r) => r.contact.outcome)).toEqual([
          "do_not_call",
          "do_not_call",
          "do_not_call"
        ])
        expect(yield* (yield* ChannelStore).held(organization.id, new Date(0))).toEqual([])
      }).pipe(Effect.provide(simulated)),
    120_000
  )

  it.effect("dials numbers outside calling hours only once their window opens, the others meanwhile", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Night",
        agent: agent.public_id,
        contacts: rows(["+48500100001", "+12125550101", "+48500100002", "+12125550102"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      const dialer = yield* CampaignDialer.make("night-dialer")
      yield* dialer.round
      const first = yield* runsOf(organization.id, agent.id)
      expect(first.map((r) => r.phone_number).sort()).toEqual(["+12125550101", "+12125550102"])
      const waiting = yield* campaigns.report(
        organization.id,
        campaign.id,
        { status: "pending" },
        { page: 1, limit: 10 }
      )
      expect(waiting.page.items.map((r) => r.contact.next_attempt_at)).toEqual([
        new Date("2026-02-11T07:00:00.000Z"),
        new Date("2026-02-11T07:00:00.000Z")
      ])
      // an hour later: still night in Warsaw, nothing more is dialed
      yield* TestClock.adjust("1 hour")
      yield* dialer.round
      expect(yield* runsOf(organization.id, agent.id)).toHaveLength(2)
      yield* TestClock.setTime(new Date("2026-02-11T07:00:00.000Z").getTime())
      yield* dialer.round
      const all = yield* runsOf(organization.id, agent.id)
      const polish = all.filter((r) => r.phone_number!.startsWith("+48"))
      expect(polish).toHaveLength(2)
      for (const run of polish)
        expect(run.created_at.getTime()).toBe(new Date("2026-02-11T07:00:00.000Z").getTime())
    }).pipe(Effect.provide(recorded))
  )

  it.effect("visits a due campaign even when more than a round's campaigns have nothing due", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const campaigns = yield* Campaigns
      const night = yield* organizationWithAgent({ outbound_channels: 10 })
      // started first: Polish numbers, outside calling hours until the morning
      for (let i = 0; i < 5; i++) {
        const { campaign } = yield* campaigns.create(night.organization.id, {
          name: `Night ${i}`,
          agent: night.agent.public_id,
          contacts: rows([`+4850010000${i}`])
        })
        yield* campaigns.act(night.organization.id, campaign.id, "start")
      }
      yield* TestClock.adjust("1 second")
      const day = yield* organizationWithAgent({ outbound_channels: 10 })
      const { campaign } = yield* campaigns.create(day.organization.id, {
        name: "New York afternoon",
        agent: day.agent.public_id,
        contacts: rows(["+12125550101"])
      })
      yield* campaigns.act(day.organization.id, campaign.id, "start")
      const dialer = yield* CampaignDialer.make("fair-dialer", {
        ...CampaignDialer.defaults,
        campaignsPerRound: 3
      })
      for (let i = 0; i < 4; i++) {
        yield* dialer.round
        yield* TestClock.adjust("1 second")
      }
      expect((yield* runsOf(day.organization.id, day.agent.id)).map((r) => r.phone_number)).toEqual([
        "+12125550101"
      ])
      expect(yield* runsOf(night.organization.id, night.agent.id)).toEqual([])
    }).pipe(Effect.provide(recorded))
  )

  it.effect("ends a dial that fails unexpectedly as a failed attempt, and places the others", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
      const campaigns = yield* Campaigns
      const broken = "+48500100002"
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Defect",
        agent: agent.public_id,
        contacts: rows(["+48500100001", broken, "+48500100003"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      const dialer = yield* CampaignDialer.make("defect-dialer").pipe(
        Effect.provideService(Telephony, {
          placeCall: (call) =>
            call.run.phone_number === broken ? Effect.die("a bug in the runtime") : Effect.void
        })
      )
      yield* dialer.round
      const runs = yield* runsOf(organization.id, agent.id)
      const statusOf = new Map(runs.map((r) => [r.phone_number, r.status]))
      expect(statusOf.get(broken)).toBe("failed")
      expect(statusOf.get("+48500100001")).toBe("queued")
      expect(statusOf.get("+48500100003")).toBe("queued")
      const now = yield* Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
      expect(yield* (yield* ChannelStore).held(organization.id, now)).toHaveLength(2)
      expect((yield* campaignOf(organization.id, campaign.id)).totals.counts).toMatchObject({
        in_progress: 2,
        failed: 1
      })
    }).pipe(Effect.provide(recorded))
  )

  it.effect(
    "takes back the attempts of a dialer that stopped renewing its leases, freeing their channels",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
        const campaigns = yield* Campaigns
        const { campaign } = yield* campaigns.create(organization.id, {
          name: "Crash",
          agent: agent.public_id,
          max_concurrency: 2,
          retry: { max_attempts: 2, retry_delay_seconds: 0 },
          contacts: rows(["+48500100001", "+48500100002", "+48500100003"])
        })
        yield* campaigns.act(organization.id, campaign.id, "start")
        // the recording runtime never ends a call: as if the process that placed them had died
        const dead = yield* CampaignDialer.make("dead-dialer")
        yield* dead.round
        expect((yield* campaignOf(organization.id, campaign.id)).totals.counts.in_progress).toBe(2)
        const survivor = yield* CampaignDialer.make("survivor", {
          ...CampaignDialer.defaults,
          recoveryBatch: 1
        })
        yield* survivor.heartbeat
        // before the lease runs out nothing is taken back
        yield* TestClock.adjust(`${CampaignDialer.defaults.leaseSeconds - 1} seconds`)
        expect(yield* survivor.recover).toBe(0)
        yield* TestClock.adjust("2 seconds")
        expect(yield* survivor.recover).toBe(2)
        const after = yield* campaignOf(organization.id, campaign.id)
        expect(after.totals.counts).toMatchObject({ in_progress: 0, pending: 3 })
        expect(after.totals.attempts).toBe(2)
        const ended = yield* runsOf(organization.id, agent.id)
        expect(ended.map((r) => r.status)).toEqual(["failed", "failed"])
        expect(
          yield* (yield* ChannelStore).held(
            organization.id,
            yield* Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
          )
        ).toEqual([])
      }).pipe(Effect.provide(recorded))
  )
  it.effect("shares the organization's channels with other calls: never dials past the free ones", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 2 })
      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Shared",
        agent: agent.public_id,
        max_concurrency: 5,
        contacts: rows(["+48500100001", "+48500100002", "+48500100003"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      // two calls placed through the API hold both channels (the recording runtime never ends them)
      const placement = yield* CallPlacement
      const other = yield* placement.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500200001"
      })
      yield* placement.place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500200002"
      })
      const dialer = yield* CampaignDialer.make("shared-dialer")
      yield* dialer.round
      expect((yield* campaignOf(organization.id, campaign.id)).totals.counts).toMatchObject({
        pending: 3,
        in_progress: 0
      })
      // one ends: one channel is free, one contact is dialed
      yield* (yield* CallEvents).report(organization.id, other.workflow_run_id, {
        type: "ended",
        status: "completed",
        duration_seconds: 3
      })
      yield* dialer.round
      expect((yield* campaignOf(organization.id, campaign.id)).totals.counts).toMatchObject({
        pending: 2,
        in_progress: 1
      })
    }).pipe(Effect.provide(recorded))
  )
  it.effect("fails the contacts of an archived agent with agent_unavailable, without a run", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Orphan",
        agent: agent.public_id,
        contacts: rows(["+48500100001", "+48500100002"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      yield* (yield* AgentStore).update(
        organization.id,
        agent.id,
        { status: "archived" },
        new Date(warsawNoon)
      )
      yield* (yield* CampaignDialer.make("orphan-dialer")).round
      const done = yield* campaignOf(organization.id, campaign.id)
      expect(done.status).toBe("completed")
      expect(done.totals).toMatchObject({ attempts: 0, counts: { failed: 2 } })
      const report = yield* campaigns.report(organization.id, campaign.id, {}, { page: 1, limit: 10 })
      expect(report.page.items.map((r) => r.contact.outcome)).toEqual([
        "agent_unavailable",
        "agent_unavailable"
      ])
      expect(yield* runsOf(organization.id, agent.id)).toEqual([])
    }).pipe(Effect.provide(recorded))
  )
  it.effect(
    "dials nothing new while paused; a cancel skips the pending and the retries of calls in progress",
    () =>
      Effect.gen(function* () {
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent()
        const campaigns = yield* Campaigns
        const events = yield* CallEvents
        const { campaign } = yield* campaigns.create(organization.id, {
          name: "Pause",
          agent: agent.public_id,
          max_concurrency: 1,
          retry: { max_attempts: 3, retry_delay_seconds: 0 },
          contacts: rows(["+48500100001", "+48500100002", "+48500100003"])
        })
        yield* campaigns.act(organization.id, campaign.id, "start")
        const dialer = yield* CampaignDialer.make("pause-dialer")
        yield* dialer.round
        const [first] = yield* runsOf(organization.id, agent.id)
        yield* campaigns.act(organization.id, campaign.id, "pause")
        // the call in progress finishes; nothing new is dialed while paused
        yield* events.report(organization.id, first!.workflow_run_id, {
          type: "ended",
          status: "completed",
          duration_seconds: 5
        })
        yield* dialer.round
        expect(yield* runsOf(organization.id, agent.id)).toHaveLength(1)
        expect((yield* campaignOf(organization.id, campaign.id)).totals.counts).toMatchObject({
          completed: 1,
          pending: 2
        })
        yield* campaigns.act(organization.id, campaign.id, "resume")
        yield* dialer.round
        const second = (yield* runsOf(organization.id, agent.id)).find(
          (r) => r.workflow_run_id !== first!.workflow_run_id
        )
        expect(second).toBeDefined()
        // canceled while the second call rings: the last pending contact is skipped at once, and the busy
        // second call, which its policy would retry, is skipped too
        const canceled = yield* campaigns.act(organization.id, campaign.id, "cancel")
        expect(canceled.totals.counts).toMatchObject({ pending: 0, in_progress: 1, skipped: 1 })
        yield* events.report(organization.id, second!.workflow_run_id, {
          type: "ended",
          status: "busy",
          duration_seconds: 0
        })
        const after = yield* campaignOf(organization.id, campaign.id)
        expect(after.status).toBe("canceled")
        expect(after.totals.counts).toEqual({
          pending: 0,
          in_progress: 0,
          completed: 1,
          failed: 0,
          skipped: 2
        })
        const report = yield* campaigns.report(
          organization.id,
          campaign.id,
          { status: "skipped" },
          { page: 1, limit: 10 }
        )
        expect(report.page.items.map((r) => r.contact.outcome)).toEqual(["canceled", "canceled"])
        yield* dialer.round
        expect(yield* runsOf(organization.id, agent.id)).toHaveLength(2)
      }).pipe(Effect.provide(recorded))
  )
})
