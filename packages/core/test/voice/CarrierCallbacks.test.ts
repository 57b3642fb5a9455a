import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"
import * as CallEvents from "../../src/calls/CallEvents.js"
import { CallPlacement } from "../../src/calls/CallPlacement.js"
import * as MemoryBlobStore from "../../src/memory/MemoryBlobStore.js"
import { InMemory, SimulatedEngine } from "../../src/index.js"
import type { Run } from "../../src/runs/Run.js"
import { RunStore } from "../../src/runs/RunStore.js"
import * as CallAudioHandOver from "../../src/voice/CallAudioHandOver.js"
import { Carrier } from "../../src/voice/Carrier.js"
import * as CarrierAddresses from "../../src/voice/CarrierAddresses.js"
import * as CarrierCallbacks from "../../src/voice/CarrierCallbacks.js"
import * as CarrierTelephony from "../../src/voice/CarrierTelephony.js"
import { organizationWithAgent, setNow } from "../services/Engine.js"

const callId = `CA${"0".repeat(32)}`

/** A carrier whose every status callback says the call completed after 5 s. */
const carrier = Layer.succeed(
  Carrier,
  Carrier.of({
    provider: "twilio",
    dial: () => Effect.succeed({ call_id: callId, status: "queued" as const }),
    hangUp: () => Effect.void,
    transfer: () => Effect.void,
    answerDocument: (url) => ({ content_type: "text/xml", body: url }),
    verifyWebhook: () => Effect.void,
    parseStatus: () =>
      Effect.succeed({
        call_id: callId,
        call_status: "completed" as const,
        sequence: 3,
        duration_seconds: 5,
        answered_by: null,
        timestamp: null
      }),
    callPrice: () => Effect.succeed(null),
    hangUpDocument: { content_type: "text/xml", body: "<Response><Hangup/></Response>" },
    fetchCall: () => Effect.dieMessage("not used"),
    findCalls: () => Effect.succeed([]),
    callIdOf: () => null
  })
)
const addresses = CarrierAddresses.layer("https://voice.example.com/", "s".repeat(32))

const layer = CarrierCallbacks.layer.pipe(
  Layer.provideMerge(
    SimulatedEngine.layerWithTelephony(
      CarrierTelephony.layer("+48221234567").pipe(Layer.provide(carrier), Layer.provide(addresses)),
      InMemory.layerStores,
      MemoryBlobStore.layer
    )
  ),
  Layer.provide(carrier),
  Layer.provide(addresses)
)

/** A call placed, answered, its audio connected (a voice loop live on it), and its `completed` forked. */
const completedWhileLive = Effect.gen(function* () {
  yield* setNow("2026-02-10T11:00:00.000Z")
  const { organization, agent } = yield* organizationWithAgent()
  const run = yield* (yield* CallPlacement).place({
    organizationId: organization.id,
    agent: agent.public_id,
    phone_number: "+48500100200"
  })
  const events = yield* CallEvents.CallEvents
  const report = (event: CallEvents.CallEvent) =>
    Effect.orDie(events.report(organization.id, run.workflow_run_id, event))
  yield* report({ type: "answered" })
  yield* report({ type: "log", level: "info", message: CallAudioHandOver.connectedMessage })
  const stored = Effect.map((yield* RunStore).find(organization.id, run.workflow_run_id), (found) =>
    Option.getOrThrow(found)
  )
  const status = yield* Effect.fork(
    (yield* CarrierCallbacks.CarrierCallbacks).status(run.workflow_run_id, {
      url: "",
      params: [],
      signature: "signed"
    })
  )
  // the callback reads the run, logs that it waits, and sleeps between reads
  for (let i = 0; i < 100; i++) {
    if ((yield* stored).logs.some((l) => l.message === CallAudioHandOver.waitingMessage)) break
    yield* Effect.yieldNow()
  }
  return { report, stored, status }
})

const messages = (run: Run) => run.logs.map((l) => l.message)

describe("CarrierCallbacks: the end of a call whose voice loop is live", () => {
  it.effect("waits for the loop's hand-over, then ends the run", () =>
    Effect.gen(function* () {
      const { report, stored, status } = yield* completedWhileLive
      expect(messages(yield* stored)).toContain(CallAudioHandOver.waitingMessage)
      yield* TestClock.adjust("1 second")
      expect((yield* stored).status).toBe("in_progress")
      expect(Option.isNone(yield* Fiber.poll(status))).toBe(true)
      // the loop stores what it has, then hands over: the callback's next read ends the run
      yield* report({ type: "fragment", role: "user", text: "bye", timestamp: new Date() })
      yield* report({ type: "log", level: "info", message: CallAudioHandOver.handedOverMessage })
      yield* TestClock.adjust(CallAudioHandOver.pollInterval)
      yield* Fiber.join(status)
      const run = yield* stored
      expect(run.status).toBe("completed")
      expect(run.duration_seconds).toBe(5)
      expect(run.files.transcript).not.toBeNull()
    }).pipe(Effect.provide(layer))
  )

  it.effect("ends the run anyway after handOverTimeout when the loop never hands over", () =>
    Effect.gen(function* () {
      const { stored, status } = yield* completedWhileLive
      yield* TestClock.adjust("9900 millis")
      expect((yield* stored).status).toBe("in_progress")
      yield* TestClock.adjust("100 millis")
      yield* Fiber.join(status)
      expect((yield* stored).status).toBe("completed")
      expect(messages(yield* stored)).not.toContain(CallAudioHandOver.handedOverMessage)
    }).pipe(Effect.provide(layer))
  )
})
