import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { AgentStore } from "../../src/agents/AgentStore.js"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { CallEvents } from "../../src/calls/CallEvents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import { Telephony } from "../../src/calls/Telephony.js"
import { InMemory } from "../../src/index.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { campaignOf, rows, runsOf, warsawNoon } from "./DialerTesting.js"

const recorded = InMemory.layer

describe("CampaignDialer through the call gates", () => {
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
