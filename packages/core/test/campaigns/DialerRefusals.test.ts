import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Metric } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { DoNotCallList } from "../../src/do-not-call/DoNotCallList.js"
import { InMemory } from "../../src/index.js"
import { callsRefused } from "../../src/observability/OperationalEvents.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { rows, warsawNight } from "./DialerTesting.js"

const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(2)))
const refusedBy = (gate: "do_not_call" | "calling_hours" | "channels") =>
  Effect.map(Metric.value(Metric.tagged(callsRefused, "gate", gate)), (state) => state.count)

describe("the dialer's refusals in vap_calls_refused_total", () => {
  it.effect("counts a campaign's Do not call skips and calling-hours waits by gate, once each", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNight)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 10 })
      yield* (yield* DoNotCallList).add(organization.id, { phone_number: "+12125550102", reason: null })
      const { campaign } = yield* (yield* Campaigns).create(organization.id, {
        name: "Refusals",
        agent: agent.public_id,
        // night in Warsaw (waits for its window), afternoon in New York (dialed), and a listed number
        contacts: rows(["+48500100001", "+12125550101", "+12125550102"])
      })
      yield* (yield* Campaigns).act(organization.id, campaign.id, "start")
      const before = { dnc: yield* refusedBy("do_not_call"), hours: yield* refusedBy("calling_hours") }
      const dialer = yield* CampaignDialer.make("refusals-dialer")
      yield* dialer.round
      yield* dialer.round
      expect(yield* refusedBy("do_not_call")).toBe(before.dnc + 1)
      expect(yield* refusedBy("calling_hours")).toBe(before.hours + 1)
    }).pipe(Effect.provide(simulated))
  )
})
