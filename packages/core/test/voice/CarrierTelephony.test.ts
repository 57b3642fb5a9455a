import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { InMemory, SimulatedEngine } from "../../src/index.js"
import { PhoneNumberStore } from "../../src/phone-numbers/PhoneNumberStore.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { UsageStore } from "../../src/usage/UsageStore.js"
import { Carrier, type CarrierCall, type DialRequest, type PlacedCall } from "../../src/voice/Carrier.js"
import * as CarrierAddresses from "../../src/voice/CarrierAddresses.js"
import {
  CarrierDeadline,
  type CarrierRequestError,
  CarrierUnavailable
} from "../../src/voice/CarrierErrors.js"
import * as CarrierDialOutcome from "../../src/voice/CarrierDialOutcome.js"
import * as CarrierTelephony from "../../src/voice/CarrierTelephony.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

/**
 * A carrier in memory: it records each dial, and refuses them all while `down`; while `lost`, a dial's
 * answer is lost (its deadline passes) and `found` is what a look-up of the number's calls finds.
 */
const recordingCarrier = () => {
  const dials: Array<DialRequest> = []
  const lookUps: Array<{ readonly to: string; readonly from: string }> = []
  const state: {
    down: boolean
    lost: boolean
    found: ReadonlyArray<CarrierCall>
    /** When set, a dial is answered only once it is done. */
    answer: Deferred.Deferred<void> | null
  } = {
    down: false,
    lost: false,
    found: [],
    answer: null
  }
  const carrier = Carrier.of({
    provider: "twilio",
    dial: (request) =>
      Effect.suspend((): Effect.Effect<PlacedCall, CarrierRequestError> => {
        if (state.down) return Effect.fail(new CarrierUnavailable({ reason: "status 500" }))
        dials.push(request)
        if (state.lost) return Effect.fail(new CarrierDeadline({ timeout_ms: 10_000 }))
        const placed = { call_id: `CA${"0".repeat(32)}`, status: "queued" as const }
        return state.answer === null
          ? Effect.succeed(placed)
          : Effect.as(Deferred.await(state.answer), placed)
      }),
    hangUp: () => Effect.void,
    transfer: () => Effect.void,
    answerDocument: (url) => ({ content_type: "text/xml", body: url }),
    verifyWebhook: () => Effect.void,
    parseStatus: () => Effect.dieMessage("not used"),
    callPrice: () => Effect.succeed(null),
    hangUpDocument: { content_type: "text/xml", body: "<Response><Hangup/></Response>" },
    fetchCall: () => Effect.dieMessage("not used"),
    findCalls: (query) => Effect.sync(() => (lookUps.push(query), state.found)),
    callIdOf: () => null
  })
  return { carrier, dials, lookUps, state }
}

const engineWith = (fallback: string | null, carrier: Carrier["Type"]) =>
  SimulatedEngine.layerWithTelephony(
    CarrierTelephony.layer(fallback).pipe(
      Layer.provide(Layer.succeed(Carrier, carrier)),
      Layer.provide(CarrierAddresses.layer("https://voice.example.com/base/", "s".repeat(32)))
    ),
    InMemory.layerStores,
    MemoryBlobStore.layer
  )

// 12:00 in Warsaw: inside calling hours.
const warsawNoon = "2026-02-10T11:00:00.000Z"

const place = () =>
  Effect.gen(function* () {
    yield* setNow(warsawNoon)
    const { organization, agent } = yield* organizationWithAgent()
    const placement = yield* CallPlacement
    return {
      organization,
      placed: yield* Effect.either(
        placement.place({
          organizationId: organization.id,
          agent: agent.public_id,
          phone_number: "+48500100200"
        })
      )
    }
  })

describe("CarrierTelephony", () => {
  it.effect("dials from the deployment's default number, with the callbacks under the public address", () => {
    const fake = recordingCarrier()
    return Effect.gen(function* () {
      const { placed } = yield* place()
      const run = placed.pipe((e) => (e._tag === "Right" ? e.right : expect.fail(String(e.left))))
      expect(fake.dials).toEqual([
        {
          run_id: run.workflow_run_id,
          to: "+48500100200",
          from: "+48221234567",
          answer_url: `https://voice.example.com/base/telephony/twilio/answer/${run.workflow_run_id}`,
          status_url: `https://voice.example.com/base/telephony/twilio/status/${run.workflow_run_id}`,
          time_limit_seconds: 600,
          ring_timeout_seconds: 60
        }
      ])
      expect(run.status).toBe("queued")
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })

  it.effect("prefers the organization's first active number to the default", () => {
    const fake = recordingCarrier()
    return Effect.gen(function* () {
      yield* setNow(warsawNoon)
      const { organization, agent } = yield* organizationWithAgent()
      const numbers = yield* PhoneNumberStore
      for (const [i, number] of ["+48221000001", "+48221000002"].entries()) {
        const now = new Date(new Date(warsawNoon).getTime() - (2 - i) * 60_000)
        const added = yield* Effect.orDie(numbers.addToInventory({ number, number_type: "landline" }, now))
        yield* numbers.claim(organization.id, { number_type: "landline", id: added.id }, now)
      }
      yield* (yield* CallPlacement).place({
        organizationId: organization.id,
        agent: agent.public_id,
        phone_number: "+48500100200"
      })
      expect(fake.dials.map((d) => d.from)).toEqual(["+48221000001"])
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })

  it.effect("refuses a call with no number to call from before any run or channel exists", () => {
    const fake = recordingCarrier()
    return Effect.gen(function* () {
      const { organization, placed } = yield* place()
      expect(placed._tag === "Left" && placed.left._tag).toBe("NoCallerId")
      expect(fake.dials).toEqual([])
      const runs = yield* (yield* RunStore).listAcrossAgents(organization.id, {}, { page: 1, limit: 10 })
      expect(runs.total_count).toBe(0)
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
    }).pipe(Effect.provide(engineWith(null, fake.carrier)))
  })

  it.effect("marks the run failed and frees its channel when the carrier is down", () => {
    const fake = recordingCarrier()
    fake.state.down = true
    return Effect.gen(function* () {
      const { organization, placed } = yield* place()
      expect(placed._tag === "Left" && placed.left._tag).toBe("TelephonyUnavailable")
      expect(placed._tag === "Left" && placed.left.message).toContain("carrier_unavailable: status 500")
      const runs = yield* (yield* RunStore).listAcrossAgents(organization.id, {}, { page: 1, limit: 10 })
      expect(runs.items.map((r) => r.status)).toEqual(["failed"])
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
      // ended as every call ends (CallEvents): its ledger line written, its analysis skipped
      const ledger = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
      expect(ledger.items).toMatchObject([{ run_id: runs.items[0]!.workflow_run_id, duration_seconds: 0 }])
      const run = Option.getOrThrow(
        yield* (yield* RunStore).find(organization.id, runs.items[0]!.workflow_run_id)
      )
      expect(run).toMatchObject({ channel_reservation_id: null, analysis_status: "skipped" })
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })

  it.effect("keeps a lost dial's run queued and its channel held while its call may be ringing", () => {
    const fake = recordingCarrier()
    fake.state.lost = true
    // the carrier has a live call from the caller id to the number: maybe the dial's
    fake.state.found = [
      {
        call_id: `CA${"1".repeat(32)}`,
        status: "ringing",
        duration_seconds: null,
        price: null,
        created_at: null
      }
    ]
    return Effect.gen(function* () {
      const { organization, placed } = yield* place()
      const run = placed.pipe((e) => (e._tag === "Right" ? e.right : expect.fail(String(e.left))))
      const runs = yield* RunStore
      const stored = () => Effect.map(runs.find(organization.id, run.workflow_run_id), Option.getOrThrow)
      expect((yield* stored()).status).toBe("queued")
      expect((yield* stored()).logs.map((l) => l.message)).toEqual([
        CarrierDialOutcome.unknownMessage("carrier_deadline: the carrier did not answer within 10000 ms")
      ])
      const held = () =>
        Effect.flatMap(ChannelStore, (channels) => channels.held(organization.id, new Date(warsawNoon)))
      expect(yield* held()).toHaveLength(1)
      // looked up at 5 s, 20 s, … until the deadline (120 s): the call stays live, so does the run
      yield* TestClock.adjust("130 seconds")
      expect(fake.lookUps.length).toBeGreaterThan(1)
      expect(fake.lookUps[0]).toEqual({ to: "+48500100200", from: "+48221234567" })
      expect((yield* stored()).status).toBe("queued")
      expect((yield* stored()).logs.map((l) => l.message)).toContain(CarrierDialOutcome.stillUnknownMessage)
      expect(yield* held()).toHaveLength(1)
      expect(fake.dials).toHaveLength(1)
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })

  it.effect("ends a lost dial failed, through CallEvents, once the carrier has no live call for it", () => {
    const fake = recordingCarrier()
    fake.state.lost = true
    fake.state.found = [
      // an older call to the number, long over: not the dial's
      {
        call_id: `CA${"2".repeat(32)}`,
        status: "completed",
        duration_seconds: 30,
        price: null,
        created_at: new Date("2026-02-09T11:00:00.000Z")
      }
    ]
    return Effect.gen(function* () {
      const { organization, placed } = yield* place()
      const run = placed.pipe((e) => (e._tag === "Right" ? e.right : expect.fail(String(e.left))))
      yield* TestClock.adjust("4 seconds")
      expect(fake.lookUps).toEqual([])
      yield* TestClock.adjust("1 second")
      const ended = Option.getOrThrow(yield* (yield* RunStore).find(organization.id, run.workflow_run_id))
      expect(ended).toMatchObject({ status: "failed", channel_reservation_id: null, duration_seconds: 0 })
      expect(ended.logs.map((l) => l.message)).toContain(CarrierDialOutcome.notPlacedMessage)
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toEqual([])
      const ledger = yield* (yield* UsageStore).list(organization.id, {}, { page: 1, limit: 10 })
      expect(ledger.items).toMatchObject([{ run_id: run.workflow_run_id, duration_seconds: 0 }])
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })

  it.effect(
    "keeps a dial whose request went away mid-dial: the dial runs to its answer, the run is the call's",
    () => {
      const fake = recordingCarrier()
      return Effect.gen(function* () {
        fake.state.answer = yield* Deferred.make<void>()
        yield* setNow(warsawNoon)
        const { organization, agent } = yield* organizationWithAgent()
        const placing = yield* Effect.fork(
          (yield* CallPlacement).place({
            organizationId: organization.id,
            agent: agent.public_id,
            phone_number: "+48500100200"
          })
        )
        // the dial is sent, and the request placing the call goes away (a client gone, a server stopping)
        while (fake.dials.length === 0) yield* Effect.yieldNow()
        const leaving = yield* Effect.fork(Fiber.interrupt(placing))
        yield* Effect.yieldNow()
        // the carrier answers: the call exists, and may ring
        yield* Deferred.succeed(fake.state.answer, undefined)
        yield* Fiber.join(leaving)
        const runs = yield* RunStore
        const [run] = (yield* runs.list(organization.id, agent.id, {}, { page: 1, limit: 1 })).items
        expect(run?.status).toBe("queued")
        expect(yield* runs.carrierCallOf(run!.workflow_run_id)).toEqual(Option.some(`CA${"0".repeat(32)}`))
        expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toHaveLength(1)
        expect(fake.dials).toHaveLength(1)
      }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
    }
  )

  it.effect("leaves a lost dial to its callbacks once one named its call", () => {
    const fake = recordingCarrier()
    fake.state.lost = true
    return Effect.gen(function* () {
      const { organization, placed } = yield* place()
      const run = placed.pipe((e) => (e._tag === "Right" ? e.right : expect.fail(String(e.left))))
      // the carrier's first callback named the call (CarrierCallbacks keeps it)
      yield* (yield* RunStore).recordCarrierCall(run.workflow_run_id, `CA${"3".repeat(32)}`)
      yield* TestClock.adjust("130 seconds")
      expect(fake.lookUps).toEqual([])
      const stored = Option.getOrThrow(yield* (yield* RunStore).find(organization.id, run.workflow_run_id))
      expect(stored.status).toBe("queued")
      expect(yield* (yield* ChannelStore).held(organization.id, new Date(warsawNoon))).toHaveLength(1)
    }).pipe(Effect.provide(engineWith("+48221234567", fake.carrier)))
  })
})

describe("CarrierAddresses", () => {
  it.effect("gives the stream socket ws for http and wss for https, with a token for the run", () =>
    Effect.gen(function* () {
      const now = new Date("2026-02-10T11:00:00.000Z")
      const secure = CarrierAddresses.make("https://voice.example.com", "s".repeat(32))
      expect(yield* CarrierAddresses.streamUrl(secure, "twilio", 7, now)).toMatch(
        /^wss:\/\/voice\.example\.com\/telephony\/twilio\/stream\/7\/[0-9]+\.[A-Za-z0-9_-]{43}$/
      )
      const plain = CarrierAddresses.make("http://127.0.0.1:8080/", "s".repeat(32))
      expect(yield* CarrierAddresses.streamUrl(plain, "twilio", 7, now)).toMatch(
        /^ws:\/\/127\.0\.0\.1:8080\/telephony/
      )
    })
  )
})
