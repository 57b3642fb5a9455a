import { expect, it } from "@effect/vitest"
import { phoneAudio, type SessionOptions } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { Cause, Chunk, Effect, Exit, Fiber, Logger, LogLevel, Redacted, Stream, Tracer } from "effect"
import * as DeepgramSpeechToText from "../../src/deepgram/DeepgramSpeechToText.js"
import * as DeepgramScript from "../../testing/deepgram/DeepgramScript.js"
import * as FakeDeepgram from "../../testing/deepgram/FakeDeepgram.js"
import { eventually } from "@voice-agent-platform/core/testing"
import { adapterOver, silentFrame } from "./OverFakeDeepgram.js"

const phone: SessionOptions = { language: "en-US", ...phoneAudio }

/** The error an exit failed with, as an option (undefined for a success). */
const failureOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : undefined

it.scopedLive(
  "a session end to end: the query and key, interims, finals, the utterance end, CloseStream's flush",
  () =>
    Effect.gen(function* () {
      const fake = yield* FakeDeepgram.make()
      const stt = yield* adapterOver(fake)
      yield* fake.script({
        steps: [
          { afterBytes: 320, send: [DeepgramScript.speechStarted(), DeepgramScript.results("hel")] },
          {
            afterBytes: 640,
            send: [
              DeepgramScript.results("hello", { is_final: true, speech_final: true }),
              DeepgramScript.utteranceEnd()
            ]
          },
          // more than will be sent: it comes with CloseStream's flush
          { afterBytes: 100_000, send: [DeepgramScript.results("goodbye", { is_final: true })] }
        ]
      })
      const events = yield* Effect.scoped(
        Effect.gen(function* () {
          const session = yield* stt.open(phone)
          const reading = yield* Effect.fork(Stream.runCollect(session.events))
          for (let frame = 0; frame < 5; frame++) yield* session.send(silentFrame())
          yield* session.send(new Uint8Array(0))
          yield* session.finish
          return Chunk.toReadonlyArray(yield* Fiber.join(reading))
        })
      )
      expect(events).toEqual([
        { _tag: "Interim", text: "hel" },
        { _tag: "Final", text: "hello", speech_final: true },
        { _tag: "UtteranceEnd" },
        { _tag: "Final", text: "goodbye", speech_final: false }
      ])
      const [connection] = yield* fake.connections
      expect(connection?.query).toEqual({
        encoding: "mulaw",
        sample_rate: "8000",
        channels: "1",
        interim_results: "true",
        endpointing: "300",
        utterance_end_ms: "1000",
        language: "en-US"
      })
      expect(connection?.audioBytes).toBe(800)
      expect(connection?.controls).toEqual(["CloseStream"])
      expect(
        yield* eventually(fake.connections, (all) => all[0]?.closed === true, {
          what: "the connection closed"
        })
      ).toMatchObject([{ closed: true }])
    })
)

it.scopedLive("PCM 16 kHz in Polish with a chosen model: the query follows the session and the options", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const stt = yield* adapterOver(fake, { model: "nova-2", endpointingMs: 500, utteranceEndMs: 1500 })
    yield* Effect.scoped(
      Effect.flatMap(stt.open({ language: "pl", encoding: "linear16", sample_rate: 16000 }), (s) => s.finish)
    )
    const [connection] = yield* fake.connections
    expect(connection?.query).toMatchObject({
      encoding: "linear16",
      sample_rate: "16000",
      language: "pl",
      model: "nova-2",
      endpointing: "500",
      utterance_end_ms: "1500"
    })
  })
)

it.scopedLive("a wrong key is refused with a typed error; no key in an error, a span or a log line", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const spans: Array<Tracer.Span> = []
    const native = yield* Effect.tracer
    const tracer = Tracer.make({
      span: (...args) => {
        const span = native.span(...args)
        spans.push(span)
        return span
      },
      context: (f, fiber) => native.context(f, fiber)
    })
    const lines: Array<string> = []
    const logger = Logger.replace(
      Logger.defaultLogger,
      Logger.map(Logger.logfmtLogger, (line) => void lines.push(line))
    )
    const observed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.withTracer(tracer), Effect.provide(logger), Logger.withMinimumLogLevel(LogLevel.All))

    const wrongKey = "dg-wrong-key-that-must-not-leak-42"
    const stt = yield* DeepgramSpeechToText.make({ url: fake.url, apiKey: Redacted.make(wrongKey) })
    const exit = yield* observed(Effect.exit(Effect.scoped(stt.open(phone))))
    const error = failureOf(exit)
    const failure = error?._tag === "Some" ? error.value : undefined
    expect(failure).toMatchObject({ _tag: "SpeechToTextRefused", status: 401 })
    expect(yield* fake.refused).toEqual([401])
    expect(yield* fake.connections).toEqual([])

    // a good session too, with the right key
    const good = yield* adapterOver(fake)
    yield* observed(Effect.scoped(Effect.flatMap(good.open(phone), (session) => session.finish)))

    expect(spans.map((span) => span.name)).toEqual(["SpeechToText.open", "SpeechToText.open"])
    const everything = [
      failure?.message,
      JSON.stringify(failure),
      String(failure),
      Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "",
      ...spans.map((span) =>
        JSON.stringify([span.name, [...span.attributes]], (_, value) =>
          typeof value === "bigint" ? String(value) : value
        )
      ),
      ...lines
    ].join("\n")
    expect(everything).toContain("DEEPGRAM_API_KEY")
    expect(everything).not.toContain(wrongKey)
    expect(everything).not.toContain(fake.apiKey)
  })
)

it.scopedLive("a language the provider refuses is a refusal (400) naming the language", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const stt = yield* adapterOver(fake)
    const exit = yield* Effect.exit(Effect.scoped(stt.open({ ...phone, language: "not a language" })))
    const error = failureOf(exit)
    expect(error?._tag === "Some" ? error.value : undefined).toMatchObject({
      _tag: "SpeechToTextRefused",
      status: 400
    })
  })
)

it.scopedLive("KeepAlive goes out while no audio flows, and not while it does", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const stt = yield* adapterOver(fake, { keepAliveMs: 40 })
    yield* Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stt.open(phone)
        const idle = yield* eventually(
          fake.connections,
          (all) => (all[0]?.controls.filter((type) => type === "KeepAlive").length ?? 0) >= 3,
          { what: "three KeepAlives" }
        )
        expect(idle[0]?.controls.filter((type) => type === "KeepAlive").length).toBeGreaterThanOrEqual(3)
        yield* session.finish
      })
    )
    const [connection] = yield* fake.connections
    expect(connection?.controls.at(-1)).toBe("CloseStream")
    expect(connection?.controls.slice(0, -1).every((type) => type === "KeepAlive")).toBe(true)

    // a second session sends audio more often than the interval: each frame resets it
    const busy = yield* adapterOver(fake, { keepAliveMs: 2000 })
    yield* Effect.scoped(
      Effect.gen(function* () {
        const session = yield* busy.open(phone)
        for (let frame = 0; frame < 10; frame++) {
          yield* session.send(silentFrame())
          yield* Effect.sleep("20 millis")
        }
        yield* session.finish
      })
    )
    const second = (yield* fake.connections)[1]
    expect(second?.controls).toEqual(["CloseStream"])
    expect(second?.audioBytes).toBe(1600)
  })
)

it.scopedLive(
  "a connection dropped mid-stream fails the events and the next send, and leaves nothing open",
  () =>
    Effect.gen(function* () {
      const fake = yield* FakeDeepgram.make()
      const stt = yield* adapterOver(fake)
      yield* fake.script({
        steps: [
          { afterBytes: 160, send: [DeepgramScript.results("I need")] },
          { afterBytes: 480, drop: true }
        ]
      })
      const { events, sent } = yield* Effect.scoped(
        Effect.gen(function* () {
          const session = yield* stt.open(phone)
          const reading = yield* Effect.fork(Stream.runCollect(Stream.either(session.events)))
          for (let frame = 0; frame < 3; frame++) yield* session.send(silentFrame())
          const events = Chunk.toReadonlyArray(yield* Fiber.join(reading))
          return { events, sent: yield* Effect.exit(session.send(silentFrame())) }
        })
      )
      expect(events[0]).toMatchObject({ _tag: "Right", right: { _tag: "Interim", text: "I need" } })
      expect(events[1]).toMatchObject({
        _tag: "Left",
        left: { _tag: "SpeechToTextDropped", close_code: 1006 }
      })
      expect(events).toHaveLength(2)
      expect(failureOf(sent)).toMatchObject({ _tag: "Some", value: { _tag: "SpeechToTextDropped" } })
      const [connection] = yield* eventually(fake.connections, (all) => all.every((c) => c.closed), {
        what: "every connection closed"
      })
      expect(connection?.closed).toBe(true)
    })
)

it.scopedLive("a close with Deepgram's error code before the finish is a drop naming the code", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const stt = yield* adapterOver(fake)
    yield* fake.script({ steps: [{ afterBytes: 0, close: { code: 1011, reason: "NET-0001" } }] })
    const exit = yield* Effect.scoped(
      Effect.flatMap(stt.open(phone), (session) => Effect.exit(Stream.runDrain(session.events)))
    )
    const error = failureOf(exit)
    const failure = error?._tag === "Some" ? error.value : undefined
    expect(failure).toMatchObject({ _tag: "SpeechToTextDropped", close_code: 1011 })
    expect(failure?.message).toContain("NET-0001")
  })
)

it.scopedLive(
  "a message that is not Deepgram's protocol ends the session as unavailable; unknown types are skipped",
  () =>
    Effect.gen(function* () {
      const fake = yield* FakeDeepgram.make()
      const stt = yield* adapterOver(fake)
      yield* fake.script({
        steps: [
          { afterBytes: 0, send: [{ type: "SomethingNew", detail: 1 }, DeepgramScript.results("ok")] },
          { afterBytes: 160, send: ["{not json"] }
        ]
      })
      const events = yield* Effect.scoped(
        Effect.gen(function* () {
          const session = yield* stt.open(phone)
          const reading = yield* Effect.fork(Stream.runCollect(Stream.either(session.events)))
          yield* session.send(silentFrame())
          return Chunk.toReadonlyArray(yield* Fiber.join(reading))
        })
      )
      expect(events[0]).toMatchObject({ _tag: "Right", right: { _tag: "Interim", text: "ok" } })
      expect(events[1]).toMatchObject({ _tag: "Left", left: { _tag: "SpeechToTextUnavailable" } })
      const [connection] = yield* eventually(fake.connections, (all) => all.every((c) => c.closed), {
        what: "every connection closed"
      })
      expect(connection?.closed).toBe(true)
    })
)

it.scopedLive("the connect deadline holds against a server that accepts TCP and never upgrades", () =>
  Effect.gen(function* () {
    const stalling = yield* FakeDeepgram.neverUpgrades
    const stt = yield* DeepgramSpeechToText.make({
      url: stalling.url,
      apiKey: Redacted.make("dg-test-key"),
      connectTimeoutMs: 200
    })
    const started = Date.now()
    const exit = yield* Effect.exit(Effect.scoped(stt.open(phone)))
    expect(Date.now() - started).toBeLessThan(3000)
    expect(failureOf(exit)).toMatchObject({
      _tag: "Some",
      value: { _tag: "SpeechToTextDeadline", step: "connect", timeout_ms: 200 }
    })
    expect(yield* stalling.accepted).toBe(1)
    expect(yield* eventually(stalling.open, (open) => open === 0, { what: "no connection open" })).toBe(0)
  })
)

it.scopedLive(
  "the finish deadline holds when the provider never answers CloseStream, and the socket is closed",
  () =>
    Effect.gen(function* () {
      const fake = yield* FakeDeepgram.make()
      const stt = yield* adapterOver(fake, { finishTimeoutMs: 150 })
      yield* fake.script({ steps: [], ignoreCloseStream: true })
      const { finished, events } = yield* Effect.scoped(
        Effect.gen(function* () {
          const session = yield* stt.open(phone)
          const reading = yield* Effect.fork(Stream.runCollect(Stream.either(session.events)))
          const finished = yield* Effect.exit(session.finish)
          return { finished, events: Chunk.toReadonlyArray(yield* Fiber.join(reading)) }
        })
      )
      expect(failureOf(finished)).toMatchObject({
        _tag: "Some",
        value: { _tag: "SpeechToTextDeadline", step: "finish" }
      })
      expect(events).toMatchObject([{ _tag: "Left", left: { _tag: "SpeechToTextDeadline" } }])
      expect(
        yield* eventually(fake.connections, (all) => all[0]?.closed === true, {
          what: "the connection closed"
        })
      ).toMatchObject([{ closed: true, controls: ["CloseStream"] }])
    })
)

it.scopedLive("a session whose scope closes unfinished closes its connection", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    const stt = yield* adapterOver(fake)
    yield* Effect.scoped(Effect.flatMap(stt.open(phone), (session) => session.send(silentFrame())))
    const all = yield* eventually(fake.connections, (all) => all[0]?.closed === true, {
      what: "the connection closed"
    })
    expect(all).toMatchObject([{ closed: true, audioBytes: 160, controls: [] }])
  })
)

it.live("unreachable: a typed error naming DEEPGRAM_URL", () =>
  Effect.gen(function* () {
    // a port just closed: nothing listens there
    const url = yield* Effect.scoped(Effect.map(FakeDeepgram.neverUpgrades, (server) => server.url))
    const stt = yield* DeepgramSpeechToText.make({ url, apiKey: Redacted.make("dg-test-key") })
    const exit = yield* Effect.exit(Effect.scoped(stt.open(phone)))
    const error = failureOf(exit)
    const failure = error?._tag === "Some" ? error.value : undefined
    expect(failure?._tag).toBe("SpeechToTextUnavailable")
    expect(failure?.message).toContain("DEEPGRAM_URL")
    expect(failure?.message).not.toContain("dg-test-key")
  })
)
