import { expect, it } from "@effect/vitest"
import { phoneAudio } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { Effect, TestClock } from "effect"
import * as FakeDeepgram from "../../testing/deepgram/FakeDeepgram.js"
import { adapterOver, silentFrame } from "./OverFakeDeepgram.js"

// The session's timers run on Effect's clock: here the TestClock moves it, so the default interval is
// checked to the millisecond. The fake records control messages in the order the socket carries them, and
// `finish` returns only after it has recorded `CloseStream`: the list read then is complete.

const phone = { language: "en", ...phoneAudio }

it.scoped("KeepAlive after 4 s without audio by default, counted from the last audio sent", () =>
  Effect.gen(function* () {
    const fake = yield* FakeDeepgram.make()
    // no keepAliveMs: the default
    const stt = yield* adapterOver(fake)

    // 3999 ms of silence: none yet
    yield* Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stt.open(phone)
        yield* TestClock.adjust("3999 millis")
        yield* session.finish
      })
    )
    // 8 s of silence: two; then audio, and 3999 ms after it: none more
    yield* Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stt.open(phone)
        yield* TestClock.adjust("4000 millis")
        yield* TestClock.adjust("4000 millis")
        yield* session.send(silentFrame())
        yield* TestClock.adjust("3999 millis")
        yield* session.finish
      })
    )
    // audio, then 4 s after it: one
    yield* Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stt.open(phone)
        yield* TestClock.adjust("1000 millis")
        yield* session.send(silentFrame())
        yield* TestClock.adjust("3999 millis")
        yield* TestClock.adjust("1 millis")
        yield* session.finish
      })
    )
    const connections = yield* fake.connections
    expect(connections.map((connection) => connection.controls)).toEqual([
      ["CloseStream"],
      ["KeepAlive", "KeepAlive", "CloseStream"],
      ["KeepAlive", "CloseStream"]
    ])
  })
)
