import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Queue, Ref, TestClock } from "effect"
import type { ModelRequest } from "../../src/language-model/LanguageModel.js"
import { ModelRefused } from "../../src/language-model/LanguageModelErrors.js"
import type { TranscriptFragment } from "../../src/transcripts/Transcript.js"
import { SpeechToTextDropped } from "../../src/voice/SpeechToTextErrors.js"
import * as VoicePhrases from "../../src/voice/VoicePhrases.js"
import { calls, fail, ModelScript, text } from "../conversation/ScriptedModel.js"
import * as VoiceLoopTesting from "./VoiceLoopTesting.js"
import { Probe, audioSamples, untilMark } from "./VoiceLoopTesting.js"

/** Yields until `read` satisfies `ok` (fibers run; no clock time passes). */
const waitFor = <A>(read: Effect.Effect<A>, ok: (value: A) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 10_000; i++) {
      const value = yield* read
      if (ok(value)) return value
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage("the condition never held")
  })

const said = (fragments: Ref.Ref<ReadonlyArray<TranscriptFragment>>) =>
  Effect.map(Ref.get(fragments), (all) => all.map((f) => `${f.role}: ${f.text}`))

const userMessages = Effect.gen(function* () {
  const sent = yield* (yield* ModelScript).requests
  return sent
    .filter((s) => s.kind === "stream")
    .map((s) => (s.request as ModelRequest).messages.filter((m) => m.role === "user").map((m) => m.content))
})

describe("VoiceLoop", () => {
  it.effect(
    "greets: the first message's audio, resampled to the call's rate, a mark after each sentence",
    () =>
      Effect.gen(function* () {
        const call = yield* VoiceLoopTesting.start({ greeting: "Hello, this is Ada. How can I help?" })
        const first = yield* untilMark(call.media, "1.1")
        expect(first[0]!._tag).toBe("Audio")
        // four words of 320 samples at 16 kHz → 640 at 8 kHz
        expect(audioSamples(first)).toBe((4 * VoiceLoopTesting.samplesPerWord) / 2)
        const second = yield* untilMark(call.media, "1.2")
        expect(audioSamples(second)).toBe((4 * VoiceLoopTesting.samplesPerWord) / 2)
        expect(yield* waitFor(said(call.fragments), (all) => all.length === 1)).toEqual([
          "assistant: Hello, this is Ada. How can I help?"
        ])
        expect(yield* Ref.get((yield* Probe).spoken)).toEqual(["Hello, this is Ada.", "How can I help?"])
        yield* Fiber.interrupt(call.loop)
      }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("answers a caller's turn through the engine, with the turn's latencies", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* (yield* ModelScript).push(text("We have a table at eight. Shall I book it?"))
      yield* Ref.set((yield* Probe).pace, Duration.decode("10 millis"))
      yield* call.media.say("a table for two tonight")
      const answering = yield* Effect.fork(untilMark(call.media, "2.2"))
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(answering)
      expect(yield* waitFor(said(call.fragments), (all) => all.length === 3)).toEqual([
        "assistant: Hello, this is Ada. How can I help?",
        "user: a table for two tonight",
        "assistant: We have a table at eight. Shall I book it?"
      ])
      expect(yield* userMessages).toEqual([["a table for two tonight"]])
      const [latency] = yield* Ref.get(call.latencies)
      expect(latency).toEqual({
        turn: 1,
        caller_stopped_at: new Date(0),
        transcript_final_ms: 0,
        first_token_ms: 0,
        first_audio_ms: 10,
        first_frame_ms: 10
      })
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("barge-in: clear sent, the reply stopped, the transcript cut at the last echoed mark", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const call = yield* VoiceLoopTesting.start({ greeting: "Hello there.", echoMarks: false })
      yield* untilMark(call.media, "1.1")
      yield* call.media.echo("1.1")
      yield* (yield* ModelScript).push(text("One two three. Four five six. Seven eight nine."))
      yield* Ref.set(probe.pace, Duration.decode("100 millis"))
      yield* call.media.say("a table")
      const first = yield* Effect.fork(untilMark(call.media, "2.1"))
      yield* TestClock.adjust("300 millis")
      yield* Fiber.join(first)
      yield* call.media.echo("2.1")
      yield* TestClock.adjust("100 millis") // the second sentence is being synthesized, not yet sent
      yield* Ref.set(probe.pace, Duration.decode("0 millis"))
      yield* call.media.say("wait please")
      const rest = yield* untilMark(call.media, "3.1")
      expect(rest.map((e) => e._tag)).toContain("Clear")
      expect(rest.some((e) => e._tag === "Mark" && e.name === "2.2")).toBe(false)
      expect(yield* Ref.get(probe.interrupted)).toEqual(["Four five six."])
      expect(yield* Ref.get(probe.spoken)).not.toContain("Seven eight nine.")
      yield* call.media.echo("3.1")
      expect(yield* waitFor(said(call.fragments), (all) => all.length === 5)).toEqual([
        "assistant: Hello there.",
        "user: a table",
        "assistant: One two three.",
        "user: wait please",
        "assistant: OK."
      ])
      // the model is told only what the caller heard
      const sent = yield* (yield* ModelScript).requests
      const last = sent.filter((s) => s.kind === "stream").at(-1)!.request as ModelRequest
      expect(last.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual([
        "Hello there.",
        "One two three."
      ])
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("barge-in: marks the clear gives back do not count as played", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start({ greeting: "Hello there.", echoMarks: false })
      yield* untilMark(call.media, "1.1")
      yield* call.media.echo("1.1")
      yield* (yield* ModelScript).push(text("One two. Three four."))
      yield* call.media.say("a table")
      yield* untilMark(call.media, "2.2")
      yield* call.media.echo("2.1")
      yield* call.media.say("stop please")
      const rest = yield* untilMark(call.media, "3.1")
      expect(rest[0]).toEqual({ _tag: "Clear" })
      yield* call.media.echo("3.1")
      expect(yield* waitFor(said(call.fragments), (all) => all.length === 5)).toEqual([
        "assistant: Hello there.",
        "user: a table",
        "assistant: One two.",
        "user: stop please",
        "assistant: OK."
      ])
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect(
    "a transport that echoes no marks: a reply counts as played after its audio's time and the grace",
    () =>
      Effect.gen(function* () {
        const call = yield* VoiceLoopTesting.start({ greeting: "Hello there.", echoMarks: false })
        const greeting = yield* untilMark(call.media, "1.1")
        yield* VoiceLoopTesting.settle
        // two words: 640 samples at 16 kHz, 320 at 8 kHz = 40 ms, then the 2 s grace
        expect(audioSamples(greeting)).toBe(320)
        yield* TestClock.adjust("2039 millis")
        expect(yield* Ref.get(call.fragments)).toEqual([])
        yield* TestClock.adjust("1 millis")
        expect(yield* waitFor(said(call.fragments), (all) => all.length === 1)).toEqual([
          "assistant: Hello there."
        ])
        yield* Fiber.interrupt(call.loop)
      }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("a key pressed is a user turn [DTMF 1]", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* (yield* ModelScript).push(text("You chose one."))
      yield* call.media.press("1")
      yield* untilMark(call.media, "2.1")
      expect(yield* waitFor(said(call.fragments), (all) => all.length === 3)).toEqual([
        "assistant: Hello, this is Ada. How can I help?",
        "user: [DTMF 1]",
        "assistant: You chose one."
      ])
      expect(yield* userMessages).toEqual([["[DTMF 1]"]])
      expect((yield* Ref.get(call.latencies))[0]).toMatchObject({ turn: 1, transcript_final_ms: 0 })
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("silence past VOICE_SILENCE_SECONDS gets one reprompt, then a goodbye and the end", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const phrases = VoicePhrases.of("en")
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* waitFor(said(call.fragments), (all) => all.length === 1)
      yield* TestClock.adjust("9999 millis")
      expect(yield* Ref.get(probe.spoken)).toHaveLength(2)
      yield* TestClock.adjust("1 millis")
      yield* untilMark(call.media, "2.1")
      expect((yield* Ref.get(probe.spoken)).at(-1)).toBe(phrases.reprompt)
      yield* waitFor(said(call.fragments), (all) => all.length === 2)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "silence" })
      expect((yield* said(call.fragments)).slice(1)).toEqual([
        `assistant: ${phrases.reprompt}`,
        `assistant: ${phrases.goodbye}`
      ])
      expect(yield* call.media.sent).not.toContainEqual({ _tag: "Clear" })
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("the caller speaking resets the silence watch", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* waitFor(said(call.fragments), (all) => all.length === 1)
      yield* TestClock.adjust("8 seconds")
      yield* call.media.say("hmm let me think")
      yield* untilMark(call.media, "2.1")
      yield* waitFor(said(call.fragments), (all) => all.length === 3)
      yield* TestClock.adjust("8 seconds")
      expect(yield* Ref.get(probe.spoken)).not.toContain(VoicePhrases.of("en").reprompt)
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("end_call from the model ends the loop once its last words were played", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start({ endCall: true })
      yield* untilMark(call.media, "1.2")
      yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
      yield* call.media.say("that is all")
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "end_call" })
      expect((yield* said(call.fragments)).slice(1)).toEqual([
        "user: that is all",
        "assistant: Thank you, goodbye!"
      ])
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("words without the provider's end of turn end the turn after the fallback silence", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* Queue.offer(probe.heard, { _tag: "Interim", text: "book a" })
      yield* Queue.offer(probe.heard, { _tag: "Interim", text: "book a table" })
      // taken by the session (a negative size: the session waits for more)
      yield* waitFor(Queue.size(probe.heard), (n) => n < 0)
      yield* VoiceLoopTesting.settle
      yield* TestClock.adjust("1999 millis")
      expect(yield* userMessages).toEqual([])
      yield* TestClock.adjust("1 millis")
      yield* untilMark(call.media, "2.1")
      expect(yield* userMessages).toEqual([["book a table"]])
      expect((yield* Ref.get(call.latencies))[0]).toMatchObject({ turn: 1, transcript_final_ms: 2000 })
      yield* Fiber.interrupt(call.loop)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("a reply the model refuses ends the loop with the model's error", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* (yield* ModelScript).push(fail(new ModelRefused({ reason: "status 401" })))
      yield* call.media.say("hello")
      expect(yield* Fiber.join(call.loop)).toEqual({
        reason: "error",
        source: "model",
        error: "ModelRefused"
      })
      expect(yield* Ref.get((yield* Probe).openSessions)).toBe(0)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("the caller hanging up ends the loop", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* call.media.hangUp
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "hangup" })
      expect(yield* Ref.get((yield* Probe).openSessions)).toBe(0)
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("the caller hanging up mid-utterance: the words heard so far are kept in the transcript", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* waitFor(said(call.fragments), (all) => all.length === 1)
      yield* Queue.offer(probe.heard, { _tag: "Final", text: "I would like", speech_final: false })
      yield* Queue.offer(probe.heard, { _tag: "Interim", text: "to book" })
      yield* waitFor(Queue.size(probe.heard), (n) => n < 0)
      yield* VoiceLoopTesting.settle
      yield* call.media.hangUp
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "hangup" })
      expect((yield* said(call.fragments)).slice(1)).toEqual(["user: I would like"])
      expect(yield* userMessages).toEqual([])
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("the caller hanging up mid-utterance with an interim only: the interim is kept", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      const call = yield* VoiceLoopTesting.start()
      yield* untilMark(call.media, "1.2")
      yield* waitFor(said(call.fragments), (all) => all.length === 1)
      yield* Queue.offer(probe.heard, { _tag: "Interim", text: "wait I" })
      yield* waitFor(Queue.size(probe.heard), (n) => n < 0)
      yield* VoiceLoopTesting.settle
      yield* call.media.hangUp
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "hangup" })
      expect((yield* said(call.fragments)).slice(1)).toEqual(["user: wait I"])
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("the caller hanging up while end_call's goodbye plays: the goodbye is in the transcript", () =>
    Effect.gen(function* () {
      const call = yield* VoiceLoopTesting.start({ endCall: true, echoMarks: false })
      yield* untilMark(call.media, "1.2")
      yield* call.media.echo("1.1")
      yield* call.media.echo("1.2")
      yield* (yield* ModelScript).push(calls([["end_conversation", {}]], "Thank you, goodbye!"))
      yield* call.media.say("that is all")
      yield* untilMark(call.media, "2.1")
      yield* VoiceLoopTesting.settle
      yield* call.media.hangUp
      expect(yield* Fiber.join(call.loop)).toEqual({ reason: "hangup" })
      expect((yield* said(call.fragments)).slice(1)).toEqual([
        "user: that is all",
        "assistant: Thank you, goodbye!"
      ])
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )

  it.effect("speech to text dropped mid-call: the loop ends with the error, nothing left running", () =>
    Effect.gen(function* () {
      const probe = yield* Probe
      yield* Ref.set(probe.pace, Duration.decode("100 millis"))
      const call = yield* VoiceLoopTesting.start({ echoMarks: false })
      const speaking = yield* Effect.fork(untilMark(call.media, "1.1"))
      yield* TestClock.adjust("400 millis")
      yield* Fiber.join(speaking)
      expect(yield* Ref.get(probe.openSessions)).toBe(1)
      yield* Deferred.succeed(probe.drop, new SpeechToTextDropped({ reason: "lost", close_code: 1006 }))
      expect(yield* Fiber.join(call.loop)).toEqual({
        reason: "error",
        source: "speech_to_text",
        error: "SpeechToTextDropped"
      })
      expect(yield* Ref.get(probe.openSessions)).toBe(0)
      expect(yield* Ref.get(probe.interrupted)).toEqual(["How can I help?"])
      const sent = (yield* call.media.sent).length
      yield* TestClock.adjust("1 minute")
      expect((yield* call.media.sent).length).toBe(sent)
      expect(yield* Ref.get(call.fragments)).toEqual([])
    }).pipe(Effect.provide(VoiceLoopTesting.layer))
  )
})
