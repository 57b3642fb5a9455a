import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Stream } from "effect"
import * as WavFile from "../../src/calls/WavFile.js"
import * as CallRecording from "../../src/voice/CallRecording.js"
import * as EmbeddedTextToSpeech from "../../src/voice/EmbeddedTextToSpeech.js"
import { collectSamples } from "../../src/voice/TextToSpeech.js"
import * as CarrierCallbacks from "../../src/voice/CarrierCallbacks.js"

const samplesOf = (wav: Uint8Array) => {
  const info = Either.getOrThrow(WavFile.parse(wav))
  const view = new DataView(wav.buffer, wav.byteOffset + info.data_offset, info.data_bytes)
  return Array.from({ length: info.data_bytes / 2 }, (_, i) => view.getInt16(i * 2, true))
}

describe("CallRecording", () => {
  it("mixes both sides on the caller's clock, the agent's audio after what is queued", () => {
    const recording = CallRecording.make(8000)
    recording.caller(new Int16Array([1, 1, 1, 1]))
    recording.agent(new Int16Array([10, 10]))
    recording.agent(new Int16Array([20, 20]))
    recording.caller(new Int16Array([1, 1]))
    const wav = recording.wav()
    expect(Either.getOrThrow(WavFile.parse(wav))).toMatchObject({ sample_rate: 8000, channels: 1 })
    expect(samplesOf(wav)).toEqual([1, 1, 1, 1, 11, 11, 20, 20])
    expect(recording.seconds()).toBe(8 / 8000)
  })

  it("cuts the agent's queued audio past the caller's clock on a clear, and clips the sum", () => {
    const recording = CallRecording.make(8000)
    recording.caller(new Int16Array([0, 0]))
    recording.agent(new Int16Array([30000, 30000, 5, 5, 5]))
    recording.caller(new Int16Array([30000, 30000]))
    recording.clear()
    recording.agent(new Int16Array([7]))
    expect(samplesOf(recording.wav())).toEqual([0, 0, 32767, 32767, 7])
  })

  it("records nothing when nothing was heard or said", () => {
    const recording = CallRecording.make(8000)
    expect(recording.seconds()).toBe(0)
    expect(samplesOf(recording.wav())).toEqual([])
  })
})

describe("EmbeddedTextToSpeech", () => {
  it.effect("gives a tone per word at 16 kHz, the same for the same text, nothing for a blank one", () =>
    Effect.gen(function* () {
      const speak = (text: string) => collectSamples(EmbeddedTextToSpeech.make.synthesize(text))
      const two = yield* speak("hello there")
      expect(two.length).toBe(
        EmbeddedTextToSpeech.samplesOfWord("hello").length +
          EmbeddedTextToSpeech.samplesOfWord("there").length
      )
      expect(Array.from(yield* speak("hello there"))).toEqual(Array.from(two))
      expect(two.some((s) => Math.abs(s) > 1000)).toBe(true)
      expect((yield* speak("   ")).length).toBe(0)
      const chunks = yield* Stream.runCollect(EmbeddedTextToSpeech.make.synthesize("a b c"))
      expect([...chunks].map((c) => c.sample_rate)).toEqual([16000, 16000, 16000])
    })
  )
})

describe("CarrierCallbacks.eventOf", () => {
  it("maps the carrier's statuses to call events, the billed duration on a completed call only", () => {
    expect(CarrierCallbacks.eventOf("queued", null)).toBeNull()
    expect(CarrierCallbacks.eventOf("initiated", null)).toBeNull()
    expect(CarrierCallbacks.eventOf("ringing", null)).toEqual({ type: "ringing" })
    expect(CarrierCallbacks.eventOf("in-progress", null)).toEqual({ type: "answered" })
    expect(CarrierCallbacks.eventOf("completed", 42)).toEqual({
      type: "ended",
      status: "completed",
      duration_seconds: 42
    })
    expect(CarrierCallbacks.eventOf("busy", 3)).toEqual({
      type: "ended",
      status: "busy",
      duration_seconds: 0
    })
    expect(CarrierCallbacks.eventOf("no-answer", null)).toEqual({
      type: "ended",
      status: "no_answer",
      duration_seconds: 0
    })
    expect(CarrierCallbacks.eventOf("canceled", null)).toMatchObject({ status: "canceled" })
    expect(CarrierCallbacks.eventOf("failed", null)).toMatchObject({ status: "failed" })
  })
})
