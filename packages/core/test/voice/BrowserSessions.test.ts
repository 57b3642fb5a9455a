import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import * as VoiceLoopSettings from "../../src/voice/VoiceLoopSettings.js"
import * as CallEvents from "../../src/calls/CallEvents.js"
import { RunStore } from "../../src/runs/RunStore.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import * as BrowserSessions from "../../src/voice/BrowserSessions.js"
import * as MemoryMediaSession from "../../src/voice/MemoryMediaSession.js"
import { calls, ModelScript } from "../conversation/ScriptedModel.js"
import * as VoiceLoopTesting from "./VoiceLoopTesting.js"
import { settle, untilMark } from "./VoiceLoopTesting.js"

const layer = BrowserSessions.layer.pipe(
  Layer.provideMerge(CallEvents.layer),
  Layer.provideMerge(VoiceLoopTesting.layer)
)

/** A browser session (a `webrtc` run) served over a fresh in-memory media session at 16 kHz. */
const served = Effect.gen(function* () {
  const setup = yield* VoiceLoopTesting.start({ endCall: true })
  yield* Fiber.interrupt(setup.loop)
  const run = setup.version.run
  expect(run.mode).toBe("webrtc")
  const media = yield* MemoryMediaSession.make({ sample_rate: 16000 })
  const heard: Array<TranscriptFragment> = []
  const fiber = yield* Effect.fork(
    (yield* BrowserSessions.BrowserSessions).serve(run.workflow_run_id, media, (fragment) =>
      Effect.sync(() => void heard.push(fragment))
    )
  )
  yield* untilMark(media, "1.2")
  const stored = Effect.map((yield* RunStore).find(run.organization_id, run.workflow_run_id), (found) =>
    Option.getOrThrow(found)
  )
  return { media, fiber, stored, heard }
})

describe("BrowserSessions", () => {
  it.effect(
    "end_call: the run goes live, its fragments reach the browser, it ends completed with a recording",
    () =>
      Effect.gen(function* () {
        const { media, fiber, stored, heard } = yield* served
        expect((yield* stored).status).toBe("in_progress")
        // a second socket for the started session runs nothing
        const other = yield* MemoryMediaSession.make({ sample_rate: 16000 })
        const run0 = yield* stored
        expect(
          yield* (yield* BrowserSessions.BrowserSessions).serve(
            run0.workflow_run_id,
            other,
            () => Effect.void
          )
        ).toBeNull()
        expect(yield* other.sent).toEqual([])
        yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
        yield* media.say("that is all")
        expect(yield* Fiber.join(fiber)).toEqual({ reason: "end_call" })
        expect(heard.map((f) => `${f.role}: ${f.text}`)).toEqual([
          "assistant: Hello, this is Ada. How can I help?",
          "user: that is all",
          "assistant: Thank you, goodbye!"
        ])
        const run = yield* stored
        expect(run.status).toBe("completed")
        expect(run.channel_reservation_id).toBeNull()
        expect(run.files.recording).not.toBeNull()
        expect(run.files.transcript).not.toBeNull()
        expect(run.analysis_status).toBe("pending")
        expect(run.logs.map((l) => l.message)).toContain("The agent ended the call")
      }).pipe(Effect.provide(layer))
  )

  it.effect(
    "the person leaving ends it completed; a dropped socket failed; a stopping server completed",
    () =>
      Effect.gen(function* () {
        const left = yield* served
        yield* left.media.hangUp
        expect(yield* Fiber.join(left.fiber)).toEqual({ reason: "hangup" })
        expect((yield* left.stored).status).toBe("completed")

        const dropped = yield* served
        yield* dropped.media.drop("the socket closed (1006)")
        yield* Fiber.join(dropped.fiber)
        const droppedRun = yield* dropped.stored
        expect(droppedRun.status).toBe("failed")
        expect(droppedRun.logs.map((l) => l.message)).toContain(
          "The call ended on an error (media: MediaSessionFailed)"
        )

        const stopped = yield* served
        yield* settle
        yield* Fiber.interrupt(stopped.fiber)
        const stoppedRun = yield* stopped.stored
        expect(stoppedRun.status).toBe("completed")
        expect(stoppedRun.logs.map((l) => l.message)).toContain("The session ended: the server stopped")
        expect(stoppedRun.files.recording).not.toBeNull()
      }).pipe(Effect.provide(layer))
  )

  it.effect("a session whose run was ended elsewhere stops within a poll, the run left as it was ended", () =>
    Effect.gen(function* () {
      const { fiber, stored } = yield* served
      const run = yield* stored
      yield* (yield* CallEvents.CallEvents).report(run.organization_id, run.workflow_run_id, {
        type: "ended",
        status: "canceled",
        duration_seconds: 1
      })
      yield* TestClock.adjust(Duration.millis(VoiceLoopSettings.defaults.runPollMs))
      expect(yield* Fiber.join(fiber)).toEqual({ reason: "run_ended" })
      expect((yield* stored).status).toBe("canceled")
    }).pipe(Effect.provide(layer))
  )
})
