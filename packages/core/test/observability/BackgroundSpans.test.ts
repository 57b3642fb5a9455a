import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { CampaignStore } from "../../src/campaigns/CampaignStore.js"
import { withOperationSpans } from "../../src/observability/OperationSpans.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { InMemory } from "../../src/index.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { rows, warsawNoon } from "../campaigns/DialerTesting.js"
import { recordingTracer } from "./RecordingTracer.js"

const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(2)))

describe("background work's traces", () => {
  it.effect("an idle dialer records no span; a round with work is one CampaignDialer.round trace", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 5 })
      // every store call a span, as SQL statements are on PostgreSQL: the polls must not show
      const store = yield* CampaignStore
      const dialer = yield* CampaignDialer.make("traced-dialer").pipe(
        Effect.provideService(CampaignStore, withOperationSpans("CampaignStore", store))
      )
      const tracer = yield* recordingTracer
      for (let i = 0; i < 5; i++) {
        yield* tracer.recording(dialer.round)
        yield* tracer.recording(dialer.heartbeat)
        yield* tracer.recording(dialer.recover)
      }
      expect(tracer.spans).toEqual([])

      const campaigns = yield* Campaigns
      const { campaign } = yield* campaigns.create(organization.id, {
        name: "Traced",
        agent: agent.public_id,
        contacts: rows(["+48500100001", "+48500100002"])
      })
      yield* campaigns.act(organization.id, campaign.id, "start")
      yield* tracer.recording(dialer.round)
      const roots = tracer.roots()
      expect(roots.map((span) => span.name)).toEqual(["CampaignDialer.round"])
      const round = roots[0]!
      expect(tracer.childrenOf(round)).toEqual(["CampaignDialer.claim", "CampaignDialer.dial"])
      const claim = tracer.spans.find((span) => span.name === "CampaignDialer.claim")!
      expect(tracer.childrenOf(claim)).toContain("CampaignStore.claimDue")
      const dial = tracer.spans.find((span) => span.name === "CampaignDialer.dial")!
      // the calls handed to telephony are spans of the dial, not traces of their own
      expect(
        tracer.spans
          .filter((span) => span.name !== "CampaignDialer.round")
          .every((span) => span.parent._tag === "Some")
      ).toBe(true)
      expect(dial.attributes.get("dials")).toBe(2)
    }).pipe(Effect.provide(simulated))
  )
})
