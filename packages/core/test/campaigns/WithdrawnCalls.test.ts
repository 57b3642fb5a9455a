import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import type { CampaignAction } from "../../src/campaigns/Campaigns.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { CampaignStore } from "../../src/campaigns/CampaignStore.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import { InMemory } from "../../src/index.js"
import { RecordedCalls } from "../../src/memory/MemoryTelephony.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

// 12:00 in Warsaw (CET)
const warsawNoon = "2026-02-10T11:00:00.000Z"

/**
 * A campaign paused or canceled after the dialer's claim committed but before telephony got the calls:
 * the action is answered at the dialer's short read of each run, just before it would place the call.
 */
const actBeforeDialing = (action: CampaignAction) =>
  Effect.gen(function* () {
    yield* setNow(warsawNoon)
    const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
    const campaigns = yield* Campaigns
    const { campaign } = yield* campaigns.create(organization.id, {
      name: "Withdrawn",
      agent: agent.public_id,
      retry: { max_attempts: 2, retry_delay_seconds: 0 },
      contacts: [
        { row: 1, phone_number: "+48500100001", initial_context: {} },
        { row: 2, phone_number: "+48500100002", initial_context: {} }
      ]
    })
    yield* campaigns.act(organization.id, campaign.id, "start")
    const runs = yield* RunStore
    const stored = yield* CampaignStore
    let acted = false
    // the action is answered after the claim committed, as the dialer reads which calls are still wanted
    const dialer = yield* CampaignDialer.make("withdrawing-dialer").pipe(
      Effect.provideService(CampaignStore, {
        ...stored,
        stillQueued: (organizationId, campaignId, runIds) =>
          Effect.zipRight(
            acted
              ? Effect.void
              : Effect.suspend(() => {
                  acted = true
                  return Effect.orDie(Effect.asVoid(campaigns.act(organization.id, campaign.id, action)))
                }),
            stored.stillQueued(organizationId, campaignId, runIds)
          )
      })
    )
    yield* dialer.round
    expect(acted).toBe(true)
    const now = yield* Effect.map(TestClock.currentTimeMillis, (ms) => new Date(ms))
    const store = yield* CampaignStore
    return {
      campaign: Option.getOrThrow(yield* store.find(organization.id, campaign.id)),
      contacts: (yield* store.listContacts(organization.id, campaign.id, {}, { page: 1, limit: 10 })).items,
      placed: yield* (yield* RecordedCalls).calls,
      runs: (yield* runs.list(organization.id, agent.id, {}, { page: 1, limit: 10 })).items,
      held: yield* (yield* ChannelStore).held(organization.id, now)
    }
  }).pipe(Effect.provide(InMemory.layer))

describe("calls claimed before a pause or cancel", () => {
  it.effect(
    "a pause answered before dialing: no call starts, the contacts wait pending, nothing counted",
    () =>
      Effect.gen(function* () {
        const { campaign, contacts, placed, runs, held } = yield* actBeforeDialing("pause")
        expect(campaign.status).toBe("paused")
        expect(placed).toEqual([])
        expect(runs).toEqual([])
        expect(held).toEqual([])
        expect(contacts.map((c) => [c.status, c.attempts, c.last_run_id, c.lease_owner])).toEqual([
          ["pending", 0, null, null],
          ["pending", 0, null, null]
        ])
        expect(campaign.totals).toMatchObject({ counts: { pending: 2, in_progress: 0 }, attempts: 0 })
      })
  )

  it.effect("a cancel answered before dialing: no call starts, the contacts are skipped as canceled", () =>
    Effect.gen(function* () {
      const { campaign, contacts, placed, runs, held } = yield* actBeforeDialing("cancel")
      expect(campaign.status).toBe("canceled")
      expect(placed).toEqual([])
      expect(runs).toEqual([])
      expect(held).toEqual([])
      expect(contacts.map((c) => [c.status, c.outcome, c.attempts])).toEqual([
        ["skipped", "canceled", 0],
        ["skipped", "canceled", 0]
      ])
      expect(campaign.totals).toMatchObject({
        counts: { pending: 0, in_progress: 0, skipped: 2 },
        attempts: 0
      })
    })
  )
})
