import { describe, expect, it } from "@effect/vitest"
import { CallAudioHandOver, CarrierDialOutcome, CarrierFinalStatus } from "@voice-agent-platform/core"
import { CallingClock } from "@voice-agent-platform/core/testing"
import { Effect } from "effect"
import {
  agentWithEndCall,
  answeredCall,
  answerUrl,
  api,
  type Body,
  runUntil,
  started,
  startedStream,
  statusUrl,
  until
} from "./TwilioHarness.js"

/**
 * What the server does when Twilio's answers or callbacks go missing, through the bundled server and the
 * fake Twilio (`TwilioHarness`): a dial whose answer was lost, a final status callback that never came, the
 * answer webhook of a call with no run, and the call's price read after the end (never while Twilio waits).
 * The carrier's check delays are shortened (`CARRIER_*_CHECK_SECONDS`).
 */

const quick = { CARRIER_LOST_DIAL_CHECK_SECONDS: "0.05", CARRIER_FINAL_STATUS_CHECK_SECONDS: "0.05" }

const hangUpTwiml = `<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>`

const messages = (run: Body): ReadonlyArray<string> => run.logs.map((l: Body) => l.message as string)

describe("real calls when Twilio's answers go missing (fakes)", { timeout: 120_000 }, () => {
  it.scopedLive(
    "a dial answered 500 after Twilio created the call: the run stays queued, never re-dialed, until its callbacks bind it",
    () =>
      Effect.gen(function* () {
        const servers = yield* started(quick)
        const { twilio, origin } = servers
        const agent = yield* agentWithEndCall(origin)
        twilio.fail({ kind: "lost", status: 500 })
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        // not a refusal: the call may be ringing
        expect(placed.status).toBe(200)
        expect(placed.body.status).toBe("queued")
        const runId = placed.body.workflow_run_id as number
        const [call] = twilio.calls()
        expect(twilio.calls()).toHaveLength(1)
        const waiting = yield* runUntil(origin, agent, runId, (run) =>
          messages(run).some((m) =>
            m.startsWith("The carrier's answer to the dial was lost (carrier_unavailable")
          )
        )
        expect(waiting.status).toBe("queued")
        // the look-up finds the call live (Twilio has it queued): the run waits for its callbacks
        yield* until(
          () => twilio.requests().some((r) => r.method === "GET" && r.path.endsWith("/Calls.json")),
          "the look-up"
        )
        expect((yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body.status).toBe(
          "queued"
        )

        // Twilio's callbacks name the call: it is the run's, its answer connects the media socket
        expect(
          (yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call!, "initiated", 0)))
            .status
        ).toBe(204)
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call!, "ringing", 1))
        yield* runUntil(origin, agent, runId, (run) => run.status === "ringing")
        const answered = yield* twilio.postSigned(answerUrl(origin, runId), [["CallSid", call!.sid]])
        const streamUrl = /<Stream url="([^"]+)"/.exec(answered.body)![1]!
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call!, "in-progress", 2))
        const stream = yield* startedStream(servers, call!, streamUrl)
        yield* stream.waitFor((received) => received.some((m) => m.event === "mark"), 20_000)
        // the caller hangs up
        yield* stream.stop
        yield* runUntil(origin, agent, runId, (run) =>
          messages(run).includes(CallAudioHandOver.handedOverMessage)
        )
        yield* twilio.postSigned(
          statusUrl(origin, runId),
          twilio.statusParams(call!, "completed", 3, [["CallDuration", "3"]])
        )
        const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
        expect(ended.duration_seconds).toBe(3)
        expect(messages(ended)).not.toContain(CarrierDialOutcome.notPlacedMessage)
        // one call, dialed once
        expect(
          twilio.requests().filter((r) => r.method === "POST" && r.path.endsWith("/Calls.json"))
        ).toHaveLength(1)
      })
  )

  it.scopedLive(
    "a dial whose connection dropped before Twilio created anything: the look-up finds no call, the run ends failed",
    () =>
      Effect.gen(function* () {
        const { twilio, origin } = yield* started(quick)
        const agent = yield* agentWithEndCall(origin)
        twilio.fail({ kind: "down" })
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        expect(placed.status).toBe(200)
        const runId = placed.body.workflow_run_id as number
        // while Twilio cannot be asked, nothing is known: the run stays queued
        yield* until(() => twilio.requests().filter((r) => r.method === "GET").length >= 2, "two look-ups")
        expect((yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body.status).toBe(
          "queued"
        )
        twilio.fail({ kind: "none" })
        const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "failed")
        expect(messages(ended)).toContain(CarrierDialOutcome.notPlacedMessage)
        expect(twilio.calls()).toEqual([])
        // its channel is free: the next call goes out
        const again = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        expect(again.status).toBe(200)
        expect(twilio.calls()).toHaveLength(1)
      })
  )

  it.scopedLive(
    "the answer webhook of an ended or unknown run hangs up, saying nothing; unsigned is still 403",
    () =>
      Effect.gen(function* () {
        const { twilio, origin } = yield* started()
        const agent = yield* agentWithEndCall(origin)
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        const runId = placed.body.workflow_run_id as number
        const call = twilio.calls().at(-1)!
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "no-answer", 1))
        yield* runUntil(origin, agent, runId, (run) => run.status === "no_answer")
        for (const id of [runId, runId + 1000]) {
          const answered = yield* twilio.postSigned(answerUrl(origin, id), [["CallSid", call.sid]])
          expect(answered).toEqual({ status: 200, body: hangUpTwiml })
          const unsigned = yield* twilio.postSigned(answerUrl(origin, id), [["CallSid", call.sid]], {
            signature: null
          })
          expect(unsigned.status).toBe(403)
        }
      })
  )

  it.scopedLive(
    "the caller hangs up and Twilio's completed never comes: the call's end is read from Twilio",
    () =>
      Effect.gen(function* () {
        const servers = yield* started(quick)
        const { twilio, origin } = servers
        const agent = yield* agentWithEndCall(origin)
        const { runId, call, streamUrl } = yield* answeredCall(servers, agent)
        const stream = yield* startedStream(servers, call, streamUrl)
        yield* stream.waitFor((received) => received.some((m) => m.event === "mark"), 20_000)
        // Twilio ended the call (the caller hung up) and settled it; its completed callback is lost
        call.status = "completed"
        call.duration = "6"
        call.price = "-0.02100"
        yield* stream.stop
        const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
        expect(ended.duration_seconds).toBe(6)
        expect(ended.cost.amount).toBeGreaterThan(0)
        const lines = yield* runUntil(origin, agent, runId, (run) =>
          messages(run).some((m) => m.startsWith("Carrier price"))
        )
        expect(messages(lines)).toEqual(
          expect.arrayContaining([
            CallAudioHandOver.handedOverMessage,
            CarrierFinalStatus.recoveredMessage("twilio"),
            "Carrier price (twilio): 0.021 USD"
          ])
        )
        // a late completed changes nothing: the run ended once
        expect(
          (yield* twilio.postSigned(
            statusUrl(origin, runId),
            twilio.statusParams(call, "completed", 3, [["CallDuration", "9"]])
          )).status
        ).toBe(204)
        expect(
          (yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body.duration_seconds
        ).toBe(6)
      })
  )

  it.scopedLive(
    "the completed callback is answered without waiting for the price, which is kept once read",
    () =>
      Effect.gen(function* () {
        const { twilio, origin } = yield* started()
        const agent = yield* agentWithEndCall(origin)
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        const runId = placed.body.workflow_run_id as number
        const call = twilio.calls().at(-1)!
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "in-progress", 2))
        call.price = "-0.01300"
        // Twilio's API holds every request: a price read in the webhook would be given up on before its answer
        twilio.fail({ kind: "held" })
        const completed = yield* twilio.postSigned(
          statusUrl(origin, runId),
          twilio.statusParams(call, "completed", 3, [["CallDuration", "5"]])
        )
        expect(completed.status).toBe(204)
        expect(twilio.requests().filter((r) => r.status === 499)).toEqual([])
        const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
        expect(messages(ended).some((m) => m.startsWith("Carrier price"))).toBe(false)
        // Twilio answers again: the price read in the background is kept
        twilio.fail({ kind: "none" })
        const priced = yield* runUntil(origin, agent, runId, (run) =>
          messages(run).some((m) => m.startsWith("Carrier price"))
        )
        expect(messages(priced).filter((m) => m.startsWith("Carrier price"))).toEqual([
          "Carrier price (twilio): 0.013 USD"
        ])
      })
  )
})
