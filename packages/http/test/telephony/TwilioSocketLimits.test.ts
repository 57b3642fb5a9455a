import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  agentWithEndCall,
  answeredCall,
  type Body,
  runUntil,
  started,
  startedStream,
  statusUrl
} from "./TwilioHarness.js"

/**
 * The media socket's limits through the bundled server (`SocketGuards`'s own suite checks them on a stub
 * socket): a Twilio stream that stops sending frames ends its call at the idle deadline, hung up through
 * the carrier, as a dropped socket does.
 */

describe("a Twilio media socket's limits, through the server", { timeout: 120_000 }, () => {
  it.scopedLive(
    "a stream that goes quiet ends its call at the 10 s idle deadline, hung up through Twilio",
    () =>
      Effect.gen(function* () {
        // no silence reprompt within the test: its mark's echo would be a frame, and the stream not quiet
        const servers = yield* started({ VOICE_SILENCE_SECONDS: "60" })
        const { twilio, origin } = servers
        const agent = yield* agentWithEndCall(origin)
        const { runId, call, streamUrl } = yield* answeredCall(servers, agent)
        const stream = yield* startedStream(servers, call, streamUrl)
        // the greeting played (its mark echoed at once); from here the caller's side sends nothing, where
        // Twilio sends a frame every 20 ms for as long as a call lasts
        yield* stream.waitFor((received) => received.some((m) => m.event === "mark"), 20_000)
        const quietSince = Date.now()
        const hungUp = () =>
          twilio.requests().some((r) => r.path.endsWith(`/Calls/${call.sid}.json`) && r.method === "POST")
        while (!hungUp() && Date.now() - quietSince < 40_000) yield* Effect.sleep("100 millis")
        expect(hungUp()).toBe(true)
        // never before the deadline (later is the watch's quarter and a loaded machine)
        expect(Date.now() - quietSince).toBeGreaterThanOrEqual(9_500)
        const ended = yield* runUntil(origin, agent, runId, (run) =>
          run.logs.some((l: Body) => l.message === "The call ended on an error (media: MediaSessionFailed)")
        )
        expect(ended.status).toBe("in_progress")
        // the carrier then reports the end, and the run ends with it
        yield* twilio.postSigned(
          statusUrl(origin, runId),
          twilio.statusParams(call, "completed", 3, [["CallDuration", "12"]])
        )
        const completed = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
        expect(completed.duration_seconds).toBe(12)
      })
  )
})
