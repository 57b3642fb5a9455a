import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import { ChannelStore } from "../../src/calls/ChannelStore.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { InMemory, SimulatedEngine } from "../../src/index.js"
import { PhoneNumberStore } from "../../src/phone-numbers/PhoneNumberStore.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { Carrier, type DialRequest } from "../../src/voice/Carrier.js"
import * as CarrierAddresses from "../../src/voice/CarrierAddresses.js"
import { CarrierUnavailable } from "../../src/voice/CarrierErrors.js"
import * as CarrierTelephony from "../../src/voice/CarrierTelephony.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

/** A carrier in memory: it records each dial, and refuses them all while `down`. */
const recordingCarrier = () => {
  const dials: Array<DialRequest> = []
  const state = { down: false }
  const carrier = Carrier.of({
    provider: "twilio",
    dial: (request) =>
      Effect.suspend(() => {
        if (state.down) return Effect.fail(new CarrierUnavailable({ reason: "status 500" }))
        dials.push(request)
        return Effect.succeed({ call_id: `CA${"0".repeat(32)}`, status: "queued" as const })
      }),
    hangUp: () => Effect.void,
    transfer: () => Effect.void,
    answerDocument: (url) => ({ content_type: "text/xml", body: url }),
    verifyWebhook: () => Effect.void,
    parseStatus: () => Effect.dieMessage("not used"),
    callPrice: () => Effect.succeed(null)
  })
  return { carrier, dials, state }
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
          time_limit_seconds: 600
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
