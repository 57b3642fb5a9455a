import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { type OutboundCall, Telephony } from "../../src/calls/Telephony.js"
import { InMemory } from "../../src/index.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { campaignOf, rows, runsOf, warsawNoon } from "./DialerTesting.js"

/**
 * A campaign that chose no caller id, dialed through a runtime that needs one (a real carrier,
 * `Telephony.callerId`): its calls get the caller id `POST …/calls` would give them, and with none to
 * give the contacts fail without a run, as such a call is refused before one exists.
 */
describe("CampaignDialer's caller id on a runtime that needs one", () => {
  const carrier = (fallback: string | null, placed: Array<OutboundCall>) =>
    Telephony.of({
      callerId: { fallback },
      placeCall: (call) =>
        Effect.sync(() => {
          placed.push(call)
        })
    })

  it.effect("dials from the runtime's default when the campaign and the organization have none", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Default caller id",
        agent: agent.public_id,
        contacts: rows(["+48500100001", "+48500100002"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      const placed: Array<OutboundCall> = []
      const dialer = yield* CampaignDialer.make("caller-id-dialer").pipe(
        Effect.provideService(Telephony, carrier("+48221234567", placed))
      )
      yield* dialer.round
      expect(placed.map((call) => call.from_phone_number)).toEqual(["+48221234567", "+48221234567"])
      const runs = yield* runsOf(organization.id, agent.id)
      expect(runs.map((run) => run.status)).toEqual(["queued", "queued"])
    }).pipe(Effect.provide(InMemory.layer))
  )

  it.effect("fails the contacts with no_caller_id, without a run, when there is none to give", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "No caller id",
        agent: agent.public_id,
        contacts: rows(["+48500100001", "+48500100002"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      const placed: Array<OutboundCall> = []
      const dialer = yield* CampaignDialer.make("no-caller-id-dialer").pipe(
        Effect.provideService(Telephony, carrier(null, placed))
      )
      yield* dialer.round
      expect(placed).toEqual([])
      expect(yield* runsOf(organization.id, agent.id)).toEqual([])
      const done = yield* campaignOf(organization.id, campaign.id)
      expect(done.status).toBe("completed")
      expect(done.totals).toMatchObject({ attempts: 0, counts: { failed: 2 } })
      const report = yield* campaigns.report(organization.id, campaign.id, {}, { page: 1, limit: 10 })
      expect(report.page.items.map((r) => r.contact.outcome)).toEqual([
        CampaignDialer.noCallerIdReason,
        CampaignDialer.noCallerIdReason
      ])
    }).pipe(Effect.provide(InMemory.layer))
  )
})
