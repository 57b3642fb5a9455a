import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { DoNotCallList } from "../../src/do-not-call/DoNotCallList.js"
import { InMemory } from "../../src/index.js"
import { isLive } from "../../src/runs/Run.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { campaignOf, rows, runsOf, warsawNight, warsawNoon } from "./DialerTesting.js"

const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(2)))
const recorded = InMemory.layer

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
})
