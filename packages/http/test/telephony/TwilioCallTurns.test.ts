import { describe, expect, it } from "@effect/vitest"
import { VoicePhrases } from "@voice-agent-platform/core"
import { AudioFixtures, DeepgramScript, FakeMediaStream } from "@voice-agent-platform/voice/testing"
import { Effect } from "effect"
import {
  agentWithEndCall,
  answeredCall,
  api,
  type Body,
  runUntil,
  type Servers,
  started,
  startedStream,
  statusUrl,
  until
} from "./TwilioHarness.js"

/**
 * What a real call's voice loop does in the middle of a call, through the bundled server and its media
 * socket (`TwilioHarness`): barge-in, keys, transfers and silence, as the caller on the fake Twilio's
 * Media Stream hears and does them.
 */

/** The caller plays the agent's audio up to its last mark received so far. */
const playAll = (stream: FakeMediaStream.Stream) =>
  Effect.suspend(() => {
    const held = stream.heldMarks()
    return held.length === 0 ? Effect.void : stream.play(held.at(-1)!)
  })

/** Waits until the engine sent `count` marks (echoed or held) in all. */
const marksSent = (stream: FakeMediaStream.Stream, count: number) =>
  stream.waitFor((received) => received.filter((m) => m.event === "mark").length >= count, 20_000)

/** The text of each message of a model request, as `role: content`. */
const conversationOf = (request: { readonly body: unknown }) =>
  ((request.body as Body).messages as Array<Body>)
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => `${m.role}: ${m.content ?? ""}`)

/** The updates of a call at Twilio's API (a hang-up or a transfer). */
const updatesOf = (servers: Servers, sid: string) =>
  servers.twilio.requests().filter((r) => r.method === "POST" && r.path.endsWith(`/Calls/${sid}.json`))

describe("a real call's turns through the server's media socket (fakes)", { timeout: 120_000 }, () => {
  it.scopedLive("barge-in cuts the reply where playback stopped; a key is a user turn [DTMF 1]", () =>
    Effect.gen(function* () {
      const servers = yield* started()
      const { twilio, deepgram, model, origin } = servers
      const agent = yield* agentWithEndCall(origin)
      const { runId, call, streamUrl } = yield* answeredCall(servers, agent)

      // the caller's first words after 0.2 s of audio, the second ones (the barge-in) 0.4 s later
      yield* deepgram.script({
        steps: [DeepgramScript.utterance("Tell me more", 3200), DeepgramScript.utterance("Wait", 9600)]
      })
      yield* model.script(
        { kind: "reply", content: "First sentence here. Second sentence there. Third one too." },
        { kind: "reply", content: "Sure, I am listening." },
        { kind: "reply", content: "Goodbye.", tool_calls: [{ name: "end_call", arguments: "{}" }] }
      )
      const stream = yield* startedStream(servers, call, streamUrl, { holdMarks: true })
      yield* marksSent(stream, 1)
      yield* playAll(stream)

      // the reply's three sentences are sent; the caller has heard only the first when they speak again
      yield* stream.sendAudio(AudioFixtures.mulawTone(440, 400))
      yield* marksSent(stream, 4)
      const [first] = stream.heldMarks()
      yield* stream.play(first!)
      yield* stream.sendAudio(AudioFixtures.mulawTone(440, 400))
      yield* stream.waitFor((received) => received.some((m) => m.event === "clear"), 20_000)
      // the reply to "Wait", played whole
      yield* marksSent(stream, 5)
      yield* playAll(stream)

      // a key: the model gets it as the caller's turn and ends the call
      yield* stream.sendDtmf("1")
      yield* marksSent(stream, 6)
      yield* playAll(stream)
      yield* until(() => updatesOf(servers, call.sid).length === 1, "the hang-up")

      const requests = yield* model.requests
      expect(requests).toHaveLength(3)
      // the request after the barge-in knows only what the caller heard
      const afterBargeIn = conversationOf(requests[1]!)
      expect(afterBargeIn).toContain("assistant: First sentence here.")
      expect(afterBargeIn.join("\n")).not.toContain("Second sentence")
      expect(afterBargeIn.at(-1)).toBe("user: Wait")
      expect(conversationOf(requests[2]!).at(-1)).toBe("user: [DTMF 1]")

      yield* twilio.postSigned(
        statusUrl(origin, runId),
        twilio.statusParams(call, "completed", 3, [["CallDuration", "9"]])
      )
      yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
      const transcript = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/transcript`)
      expect(transcript.body.turns.map((t: Body) => [t.role, t.text])).toEqual([
        ["assistant", "Hello, this is the clinic."],
        ["user", "Tell me more"],
        ["assistant", "First sentence here."],
        ["user", "Wait"],
        ["assistant", "Sure, I am listening."],
        ["user", "[DTMF 1]"],
        ["assistant", "Goodbye."]
      ])
    })
  )

  it.scopedLive("a transfer goes only to a number the agent allows; another is refused and hung up", () =>
    Effect.gen(function* () {
      const servers = yield* started()
      const { deepgram, model, origin } = servers
      const created = yield* api(origin, "POST", "/agents/from-script", {
        agent: { greeting: "Hello, this is the clinic.", agent_goal: "Route the caller" }
      })
      const agent = created.body.public_id as string
      // the tool's own number is not among the agent's transfer numbers
      const tool = yield* api(origin, "POST", "/tools", {
        name: "Transfer",
        definition: { type: "transfer", config: { destination_number: "+48225550199" } }
      })
      expect(tool.status).toBe(200)
      const patched = yield* api(origin, "PATCH", `/agents/${agent}`, {
        tools: [tool.body.tool_uuid],
        transfer_numbers: ["+48225550100"]
      })
      expect(patched.status).toBe(200)

      const transferCall = (asked: string) =>
        Effect.gen(function* () {
          const { runId, call, streamUrl } = yield* answeredCall(servers, agent)
          yield* deepgram.script({ steps: [DeepgramScript.utterance("Put me through to sales", 3200)] })
          yield* model.script({
            kind: "reply",
            content: "Transferring you now.",
            tool_calls: [{ name: "transfer", arguments: JSON.stringify({ destination_number: asked }) }]
          })
          const stream = yield* startedStream(servers, call, streamUrl)
          yield* marksSent(stream, 1)
          yield* stream.sendAudio(AudioFixtures.mulawTone(440, 400))
          yield* runUntil(origin, agent, runId, (run) =>
            run.logs.some((l: Body) => l.message.startsWith("The agent transferred the call"))
          )
          return { runId, call }
        }).pipe(Effect.scoped)

      // a number of the agent's (as the caller said it): Twilio is told to dial it, nothing hung up
      const allowed = yield* transferCall("+48 22 555 01 00")
      yield* until(() => allowed.call.twiml.length === 1, "the transfer")
      expect(allowed.call.twiml).toEqual(["<Response><Dial>+48225550100</Dial></Response>"])
      expect(updatesOf(servers, allowed.call.sid)).toHaveLength(1)
      expect(updatesOf(servers, allowed.call.sid)[0]!.params).not.toContainEqual(["Status", "completed"])

      // another number: the model's is ignored, the tool's own is not allowed: refused, the call hung up
      const refused = yield* transferCall("+48600100200")
      yield* until(() => updatesOf(servers, refused.call.sid).length === 1, "the hang-up")
      expect(refused.call.twiml).toEqual([])
      expect(updatesOf(servers, refused.call.sid)[0]!.params).toContainEqual(["Status", "completed"])
      const run = yield* runUntil(origin, agent, refused.runId, (r) =>
        r.logs.some((l: Body) => l.message.includes("is not allowed by the agent"))
      )
      expect(run.logs.map((l: Body) => l.message)).toContain(
        "The transfer to +48225550199 is not allowed by the agent; the call is hung up"
      )
    })
  )

  it.scopedLive("a silent caller hears one reprompt, then a goodbye, and the call is hung up", () =>
    Effect.gen(function* () {
      const servers = yield* started({ VOICE_SILENCE_SECONDS: "2" })
      const { twilio, origin } = servers
      const agent = yield* agentWithEndCall(origin)
      const { runId, call, streamUrl } = yield* answeredCall(servers, agent)
      const stream = yield* startedStream(servers, call, streamUrl)
      // the greeting, the reprompt and the goodbye, each a sentence with its mark; then the hang-up
      yield* until(() => updatesOf(servers, call.sid).length === 1, "the hang-up after the silence")
      expect(stream.received().filter((m) => m.event === "mark").length).toBeGreaterThanOrEqual(3)

      yield* twilio.postSigned(
        statusUrl(origin, runId),
        twilio.statusParams(call, "completed", 3, [["CallDuration", "6"]])
      )
      const ended = yield* runUntil(origin, agent, runId, (run) => run.status === "completed")
      expect(ended.logs.map((l: Body) => l.message)).toContain(
        "The call ended after the caller stayed silent"
      )
      const phrases = VoicePhrases.of("en")
      const transcript = yield* api(origin, "GET", `/agents/${agent}/conversations/${runId}/transcript`)
      // the transcript joins an agent's consecutive fragments into one turn
      expect(transcript.body.turns.map((t: Body) => [t.role, t.text])).toEqual([
        ["assistant", `Hello, this is the clinic. ${phrases.reprompt} ${phrases.goodbye}`]
      ])
    })
  )
})
