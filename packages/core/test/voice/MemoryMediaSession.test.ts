import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Exit, Stream } from "effect"
import * as EmbeddedSpeechToText from "../../src/voice/EmbeddedSpeechToText.js"
import * as MemoryMediaSession from "../../src/voice/MemoryMediaSession.js"
import * as Pcm16Bytes from "../../src/voice/Pcm16Bytes.js"

describe("MemoryMediaSession", () => {
  it("carries the embedded speech-to-text's text frame inside PCM16 samples, odd lengths padded", () => {
    for (const text of ["yes", "yes please", "Zażółć gęślą jaźń"]) {
      const bytes = Pcm16Bytes.encode(MemoryMediaSession.speechSamples(text))
      expect(EmbeddedSpeechToText.textOfFrame(bytes)?.trim()).toBe(text)
    }
  })

  it.effect("the caller's events in order, ending at Stopped", () =>
    Effect.gen(function* () {
      const media = yield* MemoryMediaSession.make({ sample_rate: 16000 })
      yield* media.say("hi")
      yield* media.press("5")
      yield* media.hangUp
      yield* media.press("6")
      const events = Chunk.toReadonlyArray(yield* Stream.runCollect(media.events))
      expect(events.map((e) => e._tag)).toEqual(["Audio", "Dtmf", "Stopped"])
      expect(events[0]).toMatchObject({ _tag: "Audio", sample_rate: 16000 })
    })
  )

  it.effect("echoes marks at once, or when told; a clear echoes those still queued", () =>
    Effect.gen(function* () {
      const instant = yield* MemoryMediaSession.make()
      yield* instant.sendAudio(new Int16Array(160))
      yield* instant.sendMark("a")
      yield* instant.hangUp
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(instant.events))).toEqual([
        { _tag: "Mark", name: "a" },
        { _tag: "Stopped" }
      ])

      const held = yield* MemoryMediaSession.make({ echoMarks: false })
      for (const name of ["1", "2", "3"]) yield* held.sendMark(name)
      yield* held.echo("1")
      yield* held.echo("1")
      expect(yield* held.pendingMarks).toEqual(["2", "3"])
      yield* held.clear
      yield* held.hangUp
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(held.events))).toEqual([
        { _tag: "Mark", name: "1" },
        { _tag: "Mark", name: "2" },
        { _tag: "Mark", name: "3" },
        { _tag: "Stopped" }
      ])
      expect((yield* held.sent).map((e) => e._tag)).toEqual(["Mark", "Mark", "Mark", "Clear"])
      expect(yield* held.next).toEqual({ _tag: "Mark", name: "1" })
    })
  )

  it.effect("a dropped transport fails its events and what is sent after", () =>
    Effect.gen(function* () {
      const media = yield* MemoryMediaSession.make()
      yield* media.drop("socket closed")
      const events = yield* Effect.exit(Stream.runCollect(media.events))
      expect(Exit.isFailure(events)).toBe(true)
      const sent = yield* Effect.flip(media.sendAudio(new Int16Array(1)))
      expect(sent).toMatchObject({ _tag: "MediaSessionFailed", reason: "socket closed" })
    })
  )
})
