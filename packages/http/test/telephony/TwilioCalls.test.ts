import { describe, expect, it } from "@effect/vitest"
import { CallAudioHandOver, StreamToken, WavFile } from "@voice-agent-platform/core"
import { AudioFixtures, DeepgramScript, FakeMediaStream } from "@voice-agent-platform/voice/testing"
import { Effect, Either, Fiber } from "effect"
import { CallingClock } from "@voice-agent-platform/core/testing"
import {
  agentWithEndCall,
  answerUrl,
  api,
  type Body,
  defaultFrom,
  download,
  mediaSecret,
  runUntil,
  serverNow,
  started,
  statusUrl,
  until
} from "./TwilioHarness.js"

/**
 * Real calls end to end through the bundled server (`Server.layer`, configured as by the environment,
 * over its embedded database), with Twilio, Deepgram, the speech server and the model all fakes on
 * loopback: the server dials the fake Twilio, answers its signed webhooks, takes its media socket, hears
 * the caller through the fake Deepgram, thinks with the fake model, speaks through the fake speech server.
 */

describe("real calls through Twilio (fakes)", { timeout: 120_000 }, () => {
  it.scopedLive("a call end to end: dial, signed answer, stream, greeting, a turn, end_call, completed", () =>
    Effect.gen(function* () {
      const { twilio, deepgram, speech, model, origin } = yield* started()
      const agent = yield* agentWithEndCall(origin)
      const to = CallingClock.inside

      const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: to })
      expect(placed.status).toBe(200)
      const runId = placed.body.workflow_run_id as number

      // the dial, with Basic auth, the caller id and the callbacks under the public address
      const [dial] = twilio.requests()
      expect(dial).toMatchObject({ method: "POST", authorized: true, status: 201 })
      const [call] = twilio.calls()
      expect(call).toMatchObject({
        to,
        from: defaultFrom,
        url: answerUrl(origin, runId),
        status_callback: statusUrl(origin, runId)
      })

      // unsigned or wrongly signed callbacks: 403, nothing changed
      const ringing = twilio.statusParams(call!, "ringing", 1)
      expect((yield* twilio.postSigned(statusUrl(origin, runId), ringing, { signature: null })).status).toBe(
        403
      )
      expect(
        (yield* twilio.postSigned(statusUrl(origin, runId), ringing, { signature: "AAAA" })).status
      ).toBe(403)
      expect(
        (yield* twilio.postSigned(answerUrl(origin, runId), [["CallSid", call!.sid]], { signature: null }))
          .status
      ).toBe(403)
      // a signature for another URL (another run's) does not carry over
      expect(
        (yield* twilio.postSigned(statusUrl(origin, runId), ringing, {
          signedUrl: statusUrl(origin, runId + 1)
        })).status
      ).toBe(403)
      expect((yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}`)).body.status).toBe(
        "queued"
      )

      // signed progress, duplicated and reordered: ringing, then in progress once
      expect(
        (yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call!, "initiated", 0)))
          .status
      ).toBe(204)
      expect((yield* twilio.postSigned(statusUrl(origin, runId), ringing)).status).toBe(204)
      const answered = yield* twilio.postSigned(answerUrl(origin, runId), [
        ["CallSid", call!.sid],
        ["AccountSid", twilio.accountSid],
        ["CallStatus", "in-progress"]
      ])
      expect(answered.status).toBe(200)
      const streamUrl = /<Stream url="([^"]+)"/.exec(answered.body)![1]!
      expect(streamUrl).toMatch(
        new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/telephony/twilio/stream/${runId}/[0-9]+\\.[A-Za-z0-9_-]{43}$`)
      )
      expect(
        (yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call!, "in-progress", 2)))
          .status
      ).toBe(204)
      expect((yield* twilio.postSigned(statusUrl(origin, runId), ringing)).status).toBe(204)
      yield* runUntil(origin, agent, runId, (run) => run.status === "in_progress")

      // a socket with a tampered, another run's or an expired token is refused before the upgrade
      const [base, token] = [
        streamUrl.slice(0, streamUrl.lastIndexOf("/")),
        streamUrl.slice(streamUrl.lastIndexOf("/") + 1)
      ]
      const tampered = `${base}/${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`
      const expired = yield* StreamToken.make(
        runId,
        new Date(serverNow() - 1000),
        new TextEncoder().encode(mediaSecret)
      )
      for (const url of [
        tampered,
        streamUrl.replace(`/stream/${runId}/`, `/stream/${runId + 1}/`),
        `${base}/${expired}`
      ]) {
        const refused = yield* Effect.either(
          FakeMediaStream.connect(url, { callSid: call!.sid, accountSid: twilio.accountSid })
        )
        expect(Either.isLeft(refused) && refused.left.message).toContain("refused (403)")
      }

      // the caller's words, heard once 0.2 s of their audio came; the model's answer ends the call
      yield* deepgram.script({ steps: [DeepgramScript.utterance("Yes I confirm the visit", 3200)] })
      yield* model.script({
        kind: "reply",
        content: "Thank you, see you on Tuesday. Goodbye!",
        tool_calls: [{ name: "end_call", arguments: "{}" }]
      })
      // a valid token, but a start naming another call (maybe another organization's) or another account:
      // closed after its start, nothing hung up, and the run's socket still free for the dialed call
      const otherSid = `CA${"9".repeat(32)}`
      for (const start of [
        { callSid: otherSid, accountSid: twilio.accountSid },
        { callSid: call!.sid, accountSid: `AC${"9".repeat(32)}` }
      ]) {
        yield* Effect.scoped(
          Effect.gen(function* () {
            const intruder = yield* FakeMediaStream.connect(streamUrl, start)
            yield* intruder.start
            yield* until(() => intruder.closedWith() !== null, "the intruding socket closed")
            expect(intruder.received()).toEqual([])
          })
        )
      }
      expect(twilio.requests().filter((r) => r.path.includes("/Calls/CA"))).toEqual([])

      const stream = yield* FakeMediaStream.connect(streamUrl, {
        callSid: call!.sid,
        accountSid: twilio.accountSid
      })
      yield* stream.start
      // the greeting is heard: audio frames, then its mark
      yield* stream.waitFor((received) => received.some((m) => m.event === "mark"), 20_000)
      const greetingFrames = stream.received().filter((m) => m.event === "media").length
      expect(greetingFrames).toBeGreaterThan(10)
      expect(
        stream
          .received()
          .filter((m) => m.event === "media")
          .every((m) => m.event === "media" && m.media.payload.length === 160)
      ).toBe(true)

      // a second socket with the same valid token and the right call: the run's socket is taken
      yield* Effect.scoped(
        Effect.gen(function* () {
          const second = yield* FakeMediaStream.connect(streamUrl, {
            callSid: call!.sid,
            accountSid: twilio.accountSid
          })
          yield* second.start
          yield* until(() => second.closedWith() !== null, "the second socket closed")
          expect(second.received()).toEqual([])
        })
      )
      expect(stream.closedWith()).toBeNull()

      yield* stream.sendAudio(AudioFixtures.mulawTone(440, 400))
      // the reply is spoken, then the call hung up through Twilio's API
      yield* until(
        () =>
          twilio.requests().some((r) => r.method === "POST" && r.path.endsWith(`/Calls/${call!.sid}.json`)),
        "the hang-up"
      )
      const hangUp = twilio.requests().find((r) => r.path.endsWith(`/Calls/${call!.sid}.json`))!
      expect(hangUp.authorized).toBe(true)
      expect(hangUp.params).toContainEqual(["Status", "completed"])
      expect(stream.received().filter((m) => m.event === "media").length).toBeGreaterThan(greetingFrames)
      const spoken = (yield* speech.requests).map((r) => (r.body as Body).input as string)
      expect(spoken.join(" ")).toContain("Goodbye!")
      const [connection] = yield* deepgram.connections
      expect(connection!.query).toMatchObject({ encoding: "linear16", sample_rate: "8000" })

      // Twilio reports the end with its billed duration (and has settled its price): the run completes, once
      call!.price = "-0.01300"
      call!.price_unit = "USD"
      const completed = twilio.statusParams(call!, "completed", 3, [["CallDuration", "7"]])
      expect((yield* twilio.postSigned(statusUrl(origin, runId), completed)).status).toBe(204)
      expect((yield* twilio.postSigned(statusUrl(origin, runId), completed)).status).toBe(204)
      yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
      // the price is read after the end, in the background
      const ended = yield* runUntil(origin, agent, runId, (run) =>
        run.logs.some((l: Body) => l.message.startsWith("Carrier price"))
      )
      expect(ended.duration_seconds).toBe(7)
      expect(ended.cost.currency).toBe("PLN")
      expect(ended.cost.amount).toBeGreaterThan(0)
      expect(ended.logs.map((l: Body) => l.message)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Turn 1 latency: transcript final/),
          "The agent ended the call",
          "Carrier price (twilio): 0.013 USD"
        ])
      )

      // the turn's latencies in /metrics
      const metrics = yield* Effect.promise(() => fetch(`${origin}/metrics`).then((r) => r.text()))
      expect(metrics).toContain("# TYPE vap_voice_turn_latency_seconds histogram")
      expect(metrics).toMatch(/vap_voice_turn_latency_seconds_count\{[^}]*step="first_frame"[^}]*\} [1-9]/)

      // the transcript: the greeting, the caller's turn, the reply
      const transcript = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/transcript`)
      expect(transcript.status).toBe(200)
      expect(transcript.body.turns.map((t: Body) => [t.role, t.text])).toEqual([
        ["assistant", "Hello, this is the clinic."],
        ["user", "Yes I confirm the visit"],
        ["assistant", "Thank you, see you on Tuesday. Goodbye!"]
      ])
      // the recording: both sides mixed into one WAV at 8 kHz
      const recording = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/recording`)
      expect(recording.status).toBe(200)
      const wav = yield* download(recording.body.download_url)
      const info = Either.getOrThrow(WavFile.parse(wav))
      expect(info).toMatchObject({ sample_rate: 8000, channels: 1, bits_per_sample: 16 })
      // as long as the agent's audio (frames padded to 20 ms aside), which the caller's 0.4 s overlaps
      const agentSeconds = stream.receivedAudio().length / 8000
      expect(info.duration_seconds).toBeGreaterThan(0.4)
      expect(info.duration_seconds).toBeGreaterThan(agentSeconds - 0.1)
      expect(info.duration_seconds).toBeLessThanOrEqual(agentSeconds + 0.4)
    })
  )

  it.scopedLive(
    "the caller hangs up and Twilio's completed comes before the socket's stop: recording and transcript kept",
    () =>
      Effect.gen(function* () {
        const { twilio, deepgram, model, origin } = yield* started()
        const agent = yield* agentWithEndCall(origin)
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, {
          phone_number: CallingClock.inside
        })
        const runId = placed.body.workflow_run_id as number
        const call = twilio.calls().at(-1)!
        const answered = yield* twilio.postSigned(answerUrl(origin, runId), [["CallSid", call.sid]])
        const streamUrl = /<Stream url="([^"]+)"/.exec(answered.body)![1]!
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "in-progress", 2))

        yield* deepgram.script({ steps: [DeepgramScript.utterance("Sorry I have to go", 3200)] })
        yield* model.script({ kind: "reply", content: "All right, have a good day." })
        const stream = yield* FakeMediaStream.connect(streamUrl, {
          callSid: call.sid,
          accountSid: twilio.accountSid
        })
        yield* stream.start
        yield* stream.waitFor((received) => received.some((m) => m.event === "mark"), 20_000)
        yield* stream.sendAudio(AudioFixtures.mulawTone(440, 400))
        // the reply played: its mark echoed
        yield* stream.waitFor((received) => received.filter((m) => m.event === "mark").length >= 2, 20_000)

        // the caller hangs up: Twilio's completed reaches the server first, while the socket is still open
        const completed = yield* Effect.fork(
          twilio.postSigned(
            statusUrl(origin, runId),
            twilio.statusParams(call, "completed", 3, [["CallDuration", "4"]])
          )
        )
        const waiting = yield* runUntil(origin, agent, runId, (run) =>
          run.logs.some((l: Body) => l.message === CallAudioHandOver.waitingMessage)
        )
        expect(waiting.status).toBe("in_progress")
        // then the socket's stop: the loop stores the recording and the transcript, and the run ends
        yield* stream.stop
        expect((yield* Fiber.join(completed)).status).toBe(204)
        const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
        expect(ended.duration_seconds).toBe(4)
        const messages = ended.logs.map((l: Body) => l.message as string)
        expect(messages).toContain("The caller hung up")
        expect(messages.indexOf(CallAudioHandOver.handedOverMessage)).toBeGreaterThan(
          messages.indexOf(CallAudioHandOver.waitingMessage)
        )
        // no call hung up by the engine: the caller did
        expect(
          twilio.requests().some((r) => r.path.endsWith(`/Calls/${call.sid}.json`) && r.method === "POST")
        ).toBe(false)

        const transcript = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/transcript`)
        expect(transcript.body.turns.map((t: Body) => [t.role, t.text])).toEqual([
          ["assistant", "Hello, this is the clinic."],
          ["user", "Sorry I have to go"],
          ["assistant", "All right, have a good day."]
        ])
        const recording = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/recording`)
        expect(recording.status).toBe(200)
        const info = Either.getOrThrow(WavFile.parse(yield* download(recording.body.download_url)))
        expect(info.duration_seconds).toBeGreaterThan(stream.receivedAudio().length / 8000 - 0.1)
      })
  )

  it.scopedLive(
    "busy, no answer, failed, a dropped media socket, the carrier refusing: each run ends, its channel free",
    () =>
      Effect.gen(function* () {
        const { twilio, origin } = yield* started()
        const agent = yield* agentWithEndCall(origin)
        const to = CallingClock.inside
        for (const [status, final] of [
          ["busy", "busy"],
          ["no-answer", "no_answer"],
          ["failed", "failed"]
        ] as const) {
          const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: to })
          expect(placed.status).toBe(200)
          const runId = placed.body.workflow_run_id as number
          const call = twilio.calls().at(-1)!
          expect(
            (yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "ringing", 1)))
              .status
          ).toBe(204)
          expect(
            (yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, status, 2))).status
          ).toBe(204)
          const run = yield* runUntil(origin, agent, runId, (r) => r.status === final)
          expect(run.duration_seconds).toBe(0)
        }

        // the media socket drops mid-call: the call is hung up through Twilio, which then reports its end
        const placed = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: to })
        const runId = placed.body.workflow_run_id as number
        const call = twilio.calls().at(-1)!
        const answered = yield* twilio.postSigned(answerUrl(origin, runId), [["CallSid", call.sid]])
        const streamUrl = /<Stream url="([^"]+)"/.exec(answered.body)![1]!
        yield* twilio.postSigned(statusUrl(origin, runId), twilio.statusParams(call, "in-progress", 2))
        yield* Effect.scoped(
          Effect.gen(function* () {
            const stream = yield* FakeMediaStream.connect(streamUrl, {
              callSid: call.sid,
              accountSid: twilio.accountSid
            })
            yield* stream.start
            yield* stream.waitFor((received) => received.some((m) => m.event === "media"), 20_000)
          })
        )
        yield* until(
          () => twilio.requests().some((r) => r.path.endsWith(`/Calls/${call.sid}.json`)),
          "the hang-up after the drop"
        )
        const dropped = yield* runUntil(origin, agent, runId, (r) =>
          r.logs.some((l: Body) => l.message.startsWith("The call ended on an error (media"))
        )
        expect(dropped.status).toBe("in_progress")
        yield* twilio.postSigned(
          statusUrl(origin, runId),
          twilio.statusParams(call, "completed", 3, [["CallDuration", "2"]])
        )
        yield* runUntil(origin, agent, runId, (r) => r.status === "completed")

        // a refusal (a 4xx) is definite: nothing is ringing (a dropped dial is TwilioCarrierOutcomes')
        twilio.fail({ kind: "status", status: 400, code: 21215 })
        const refused = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: to })
        expect(refused.status).toBe(503)
        expect(refused.body.detail).toContain("carrier_refused")
        expect(JSON.stringify(refused.body)).not.toContain(twilio.authToken)
        twilio.fail({ kind: "none" })
        const runs = yield* api(origin, "GET", `/agents/${agent}/conversations`)
        expect(runs.body.items[0].status).toBe("failed")
        // the channels are all free: a call goes out again at once
        const again = yield* api(origin, "POST", `/agents/${agent}/calls`, { phone_number: to })
        expect(again.status).toBe(200)
      })
  )
})
