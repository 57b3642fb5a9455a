import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as CampaignDialer from "../../src/campaigns/CampaignDialer.js"
import { Campaigns } from "../../src/campaigns/Campaigns.js"
import { CampaignStore } from "../../src/campaigns/CampaignStore.js"
import * as SimulationConfig from "../../src/calls/SimulationConfig.js"
import { InMemory } from "../../src/index.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"
import { rows, warsawNoon } from "../campaigns/DialerTesting.js"
import { CallEvents } from "../../src/calls/CallEvents.js"
import * as WebhookDispatcher from "../../src/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/webhooks/Webhooks.js"
import { WebhookStore } from "../../src/webhooks/WebhookStore.js"
import { setup, testLayer } from "../webhooks/WebhookFixtures.js"
import * as Housekeeping from "../../src/housekeeping/Housekeeping.js"
import { engine } from "../services/Engine.js"
import { recordingTracer } from "./RecordingTracer.js"
import { spanned } from "./SpannedStore.js"

const simulated = InMemory.layerSimulated.pipe(Layer.provide(SimulationConfig.layer(2)))

describe("background work's traces", () => {
  it.effect("an idle dialer records no span; a round with work is one CampaignDialer.round trace", () =>
    Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent({ outbound_channels: 5 })
      // every store call a span, as SQL statements are on PostgreSQL: the polls must not show
      const store = yield* CampaignStore
      const dialer = yield* CampaignDialer.make("traced-dialer").pipe(
        Effect.provideService(CampaignStore, spanned("CampaignStore", store))
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

  it.effect("an idle webhook round records no span; one that claims is a WebhookDispatcher.round trace", () =>
    Effect.gen(function* () {
      const { organization, run } = yield* setup
      const tracer = yield* recordingTracer
      const store = yield* WebhookStore
      const round = WebhookDispatcher.deliverDue().pipe(
        Effect.provideService(WebhookStore, spanned("WebhookStore", store)),
        tracer.recording
      )
      expect(yield* round).toBe(0)
      expect(tracer.spans).toEqual([])
      yield* (yield* Webhooks).create(organization.id, {
        url: "https://a.example/h",
        events: ["call.started"]
      })
      yield* Effect.flatMap(CallEvents, (calls) =>
        calls.report(organization.id, run.workflow_run_id, { type: "ringing" })
      )
      expect(yield* round).toBe(1)
      const roots = tracer.roots()
      expect(roots.map((span) => span.name)).toEqual(["WebhookDispatcher.round"])
      expect(tracer.childrenOf(roots[0]!)).toEqual(["WebhookDispatcher.attempt"])
      const attempt = tracer.spans.find((span) => span.name === "WebhookDispatcher.attempt")!
      expect(tracer.childrenOf(attempt)).toContain("WebhookStore.recordAttempt")
    }).pipe(Effect.provide(testLayer))
  )

  it.effect("a housekeeping pass is one Housekeeping.pass trace, its reclaim and sweep beneath", () =>
    Effect.gen(function* () {
      const tracer = yield* recordingTracer
      yield* tracer.recording(Housekeeping.pass)
      const roots = tracer.roots()
      expect(roots.map((span) => span.name)).toEqual(["Housekeeping.pass"])
      expect(tracer.childrenOf(roots[0]!)).toEqual(
        expect.arrayContaining(["CallReclaim.reclaim", "RetentionSweep.sweep"])
      )
    }).pipe(Effect.provide(engine))
  )
})
