import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Exit, Fiber, FiberId, Layer, Metric, Option, TestClock } from "effect"
import * as WavFile from "../../src/calls/WavFile.js"
import { BlobStore } from "../../src/files/BlobStore.js"
import { recordingKey } from "../../src/runs/Runs.js"
import * as CallAudioHandOver from "../../src/voice/CallAudioHandOver.js"
import * as LiveCall from "../../src/voice/LiveCall.js"
import * as VoiceLoopSettings from "../../src/voice/VoiceLoopSettings.js"
import * as CallEvents from "../../src/calls/CallEvents.js"
import { CallFragmentStore } from "../../src/calls/CallFragmentStore.js"
import { RunStore } from "../../src/runs/RunStore.js"
import { Carrier, type CarrierCall } from "../../src/voice/Carrier.js"
import * as CarrierFinalStatus from "../../src/voice/CarrierFinalStatus.js"
import * as MemoryMediaSession from "../../src/voice/MemoryMediaSession.js"
import * as VoiceCalls from "../../src/voice/VoiceCalls.js"
import * as VoiceMetrics from "../../src/voice/VoiceMetrics.js"
import { calls, ModelScript } from "../conversation/ScriptedModel.js"
import * as VoiceLoopTesting from "./VoiceLoopTesting.js"
import { settle, untilMark } from "./VoiceLoopTesting.js"

const callId = `CA${"ab".repeat(16)}`

/** What the carrier was asked to do. */
const asked: Array<string> = []
/** The call's media: a hang-up ends it after a last second of the caller's audio (its tail). */
let current: MemoryMediaSession.MemoryMediaSession | null = null
const tail = new Int16Array(8000).fill(5)
/** Whether the carrier's client dies on a hang-up (a defect, not a refusal). */
let hangUpDies = false
/** What a read of the call answers (none: not used). */
let readCall: CarrierCall | null = null
const carrier = Layer.succeed(
  Carrier,
  Carrier.of({
    provider: "twilio",
    dial: () => Effect.dieMessage("not used"),
    hangUp: (id) =>
      Effect.zipRight(
        Effect.sync(() => void asked.push(`hangUp ${id}`)),
        hangUpDies
          ? Effect.dieMessage("the carrier's client broke")
          : current === null
            ? Effect.void
            : Effect.zipRight(
                current.push({ _tag: "Audio", sample_rate: 8000, samples: tail }),
                current.hangUp
              )
      ),
    transfer: (id, to) => Effect.sync(() => void asked.push(`transfer ${id} ${to}`)),
    answerDocument: () => ({ content_type: "text/xml", body: "" }),
    verifyWebhook: () => Effect.void,
    parseStatus: () => Effect.dieMessage("not used"),
    callPrice: () => Effect.succeed(null),
    hangUpDocument: { content_type: "text/xml", body: "<Response><Hangup/></Response>" },
    fetchCall: () => (readCall === null ? Effect.dieMessage("not used") : Effect.succeed(readCall)),
    findCalls: () => Effect.succeed([]),
    callIdOf: () => null
  })
)

const layer = VoiceCalls.layer.pipe(
  Layer.provideMerge(CallEvents.layer),
  Layer.provideMerge(carrier),
  Layer.provideMerge(VoiceLoopTesting.layer)
)

/** A run of an agent with end_call, and the call served over a fresh in-memory media session. */
const served = Effect.gen(function* () {
  asked.length = 0
  const setup = yield* VoiceLoopTesting.start({ endCall: true })
  yield* Fiber.interrupt(setup.loop)
  const run = setup.version.run
  const media = yield* MemoryMediaSession.make()
  current = media
  const fiber = yield* Effect.fork((yield* VoiceCalls.VoiceCalls).serve(run.workflow_run_id, callId, media))
  yield* untilMark(media, "1.2")
  const stored = Effect.map((yield* RunStore).find(run.organization_id, run.workflow_run_id), (found) =>
    Option.getOrThrow(found)
  )
  const recorded = Effect.map(
    (yield* BlobStore).get(recordingKey(run.organization_id, run.workflow_run_id)),
    (blob) => Either.getOrThrow(WavFile.parse(Option.getOrThrow(blob).bytes))
  )
  return { media, fiber, stored, recorded, run }
})

describe("VoiceCalls", () => {
  it.effect("end_call: the transcript and logs written, the recording stored, the call hung up once", () =>
    Effect.gen(function* () {
      const { media, fiber, stored, recorded } = yield* served
      yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
      yield* media.say("that is all")
      yield* Fiber.join(fiber)
      expect(asked).toEqual([`hangUp ${callId}`])
      const run = yield* stored
      const messages = run.logs.map((l) => l.message)
      expect(messages).toContain("The agent ended the call")
      expect(messages.some((m) => m.startsWith("Turn 1 latency: transcript final"))).toBe(true)
      expect(run.files.recording).not.toBeNull()
      // stored once the call's audio ended: the caller's last second after the hang-up is in it
      expect(messages.indexOf(CallAudioHandOver.handedOverMessage)).toBeGreaterThan(
        messages.indexOf("The agent ended the call")
      )
      expect((yield* recorded).data_bytes).toBeGreaterThanOrEqual(2 * tail.length)
      // the turn's latencies in /metrics too
      const firstFrame = yield* Metric.value(Metric.tagged(VoiceMetrics.turnLatency, "step", "first_frame"))
      expect(firstFrame.count).toBeGreaterThanOrEqual(1)
      const fragments = yield* (yield* CallFragmentStore).list(run.organization_id, run.workflow_run_id)
      expect(fragments.map((f) => `${f.role}: ${f.text}`)).toEqual([
        "assistant: Hello, this is Ada. How can I help?",
        "user: that is all",
        "assistant: Thank you, goodbye!"
      ])
    }).pipe(Effect.provide(layer))
  )

  it.effect("a stream that goes on after the hang-up: the recording is stored after a bounded wait", () =>
    Effect.gen(function* () {
      const { media, fiber, stored } = yield* served
      current = null
      yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
      yield* media.say("that is all")
      yield* Effect.repeatN(TestClock.adjust(Duration.seconds(1)), 5)
      yield* Fiber.join(fiber)
      expect(asked).toEqual([`hangUp ${callId}`])
      expect((yield* stored).logs.map((l) => l.message)).toContain(CallAudioHandOver.handedOverMessage)
      expect((yield* stored).files.recording).not.toBeNull()
    }).pipe(Effect.provide(layer))
  )

  it.effect("a caller who hung up is left alone", () =>
    Effect.gen(function* () {
      const { media, fiber, stored } = yield* served
      yield* media.hangUp
      yield* Fiber.join(fiber)
      expect(asked).toEqual([])
      expect((yield* stored).logs.map((l) => l.message)).toContain("The caller hung up")
    }).pipe(Effect.provide(layer))
  )

  it.effect("a dropped media session and a server stopping mid-call both hang the call up", () =>
    Effect.gen(function* () {
      const dropped = yield* served
      yield* dropped.media.drop("the socket closed (1006)")
      yield* Fiber.join(dropped.fiber)
      expect(asked).toEqual([`hangUp ${callId}`])
      expect((yield* dropped.stored).logs.map((l) => l.message)).toContain(
        "The call ended on an error (media: MediaSessionFailed)"
      )

      const stopped = yield* served
      yield* settle
      yield* Fiber.interrupt(stopped.fiber)
      expect(asked).toEqual([`hangUp ${callId}`])
    }).pipe(Effect.provide(layer))
  )

  it.effect(
    "a server stopping mid-call: the end line, the recording and the hand-over are still written",
    () =>
      Effect.gen(function* () {
        const stopped = yield* served
        yield* settle
        yield* Fiber.interrupt(stopped.fiber)
        const messages = (yield* stopped.stored).logs.map((l) => l.message)
        expect(messages).toContain("The call ended: the server stopped")
        expect(messages).toContain(CallAudioHandOver.handedOverMessage)
        expect((yield* stopped.stored).files.recording).not.toBeNull()
        expect(messages.filter((m) => m === CallAudioHandOver.handedOverMessage)).toHaveLength(1)
      }).pipe(Effect.provide(layer))
  )

  it.effect(
    "a run ended elsewhere (an end request, another server): the loop stops, the call is hung up",
    () =>
      Effect.gen(function* () {
        const { fiber, run } = yield* served
        yield* (yield* CallEvents.CallEvents).report(run.organization_id, run.workflow_run_id, {
          type: "ended",
          status: "completed",
          duration_seconds: 3
        })
        yield* TestClock.adjust(Duration.millis(VoiceLoopSettings.defaults.runPollMs))
        yield* Fiber.join(fiber)
        expect(asked).toEqual([`hangUp ${callId}`])
      }).pipe(Effect.provide(layer))
  )

  it.effect(
    "a defect on the call's end path: the call is hung up, and its run still ends, read from the carrier",
    () =>
      Effect.gen(function* () {
        const { media, fiber, stored } = yield* served
        hangUpDies = true
        readCall = {
          call_id: callId,
          status: "completed",
          duration_seconds: 7,
          price: null,
          created_at: null
        }
        yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
        yield* media.say("that is all")
        // the end path died at the hang-up: the serve's own end hangs up again and starts the read
        yield* Fiber.join(fiber)
        expect(asked).toEqual([`hangUp ${callId}`, `hangUp ${callId}`])
        expect((yield* stored).status).toBe("initialized")
        yield* TestClock.adjust(Duration.seconds(15))
        yield* settle
        const run = yield* stored
        expect(run.status).toBe("completed")
        expect(run.duration_seconds).toBe(7)
        expect(run.logs.map((l) => l.message)).toContain(CarrierFinalStatus.recoveredMessage("twilio"))
      }).pipe(
        Effect.provide(layer),
        Effect.ensuring(
          Effect.sync(() => {
            hangUpDies = false
            readCall = null
          })
        )
      )
  )

  it.effect("a defect in the loop is an error end (logged), not a lost one", () =>
    Effect.gen(function* () {
      const end = yield* LiveCall.endOf(Exit.die(new Error("boom")), "run 1")
      expect(end).toEqual({ reason: "error", source: "voice_loop", error: "Defect" })
      expect(yield* LiveCall.endOf(Exit.interrupt(FiberId.none), "run 1")).toBeNull()
    })
  )
})

describe("VoiceCalls lines", () => {
  it("names each end and each turn's latencies", () => {
    expect(VoiceCalls.endLine({ reason: "transfer", destination_number: "+48221234567" })).toBe(
      "The agent transferred the call to +48221234567"
    )
    expect(VoiceCalls.endLine({ reason: "silence" })).toBe("The call ended after the caller stayed silent")
    expect(
      VoiceCalls.latencyLine({
        turn: 2,
        caller_stopped_at: new Date(0),
        transcript_final_ms: 0,
        first_token_ms: 12,
        first_audio_ms: null,
        first_frame_ms: null
      })
    ).toBe("Turn 2 latency: transcript final 0 ms, first token 12 ms, first audio none, first frame none")
  })
})
