import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Stream } from "effect"
import * as WavFile from "../../src/calls/WavFile.js"
import * as CallRecording from "../../src/voice/CallRecording.js"
import * as RecordingSpool from "../../src/voice/RecordingSpool.js"
import * as EmbeddedTextToSpeech from "../../src/voice/EmbeddedTextToSpeech.js"
import { collectSamples } from "../../src/voice/TextToSpeech.js"
import * as CarrierCallbacks from "../../src/voice/CarrierCallbacks.js"

const samplesOf = (wav: Uint8Array) => {
  const info = Either.getOrThrow(WavFile.parse(wav))
  const view = new DataView(wav.buffer, wav.byteOffset + info.data_offset, info.data_bytes)
  return Array.from({ length: info.data_bytes / 2 }, (_, i) => view.getInt16(i * 2, true))
}

/** A recording over a memory spool that counts what it holds. */
const counted = (sampleRate = 8000) =>
  Effect.gen(function* () {
    const spool = yield* RecordingSpool.memory.open
    const written = { blocks: 0 }
    const recording = CallRecording.over(
      {
        ...spool,
        write: (side, index, bytes) =>
          Effect.zipRight(
            Effect.sync(() => void written.blocks++),
            spool.write(side, index, bytes)
          )
      },
      sampleRate
    )
    return { recording, written }
  })

describe("CallRecording", () => {
  it.scoped("mixes both sides on the caller's clock, the agent's audio after what is queued", () =>
    Effect.gen(function* () {
      const recording = yield* CallRecording.make(8000)
      yield* recording.caller(new Int16Array([1, 1, 1, 1]))
      yield* recording.agent(new Int16Array([10, 10]))
      yield* recording.agent(new Int16Array([20, 20]))
      yield* recording.caller(new Int16Array([1, 1]))
      const wav = (yield* recording.wav)!
      expect(Either.getOrThrow(WavFile.parse(wav))).toMatchObject({ sample_rate: 8000, channels: 1 })
      expect(samplesOf(wav)).toEqual([1, 1, 1, 1, 11, 11, 20, 20])
      expect(recording.seconds()).toBe(8 / 8000)
    })
  )

  it.scoped("callerNow records at once and answers Effect.void itself until a block is due", () =>
    Effect.gen(function* () {
      const { recording, written } = yield* counted(4)
      // three of a block's four samples: recorded, nothing to write
      expect(recording.callerNow(new Int16Array([1, 2, 3]))).toBe(Effect.void)
      expect(recording.seconds()).toBe(3 / 4)
      // the fourth fills the block: its write is the answer, and runs only when it is run
      const writes = recording.callerNow(new Int16Array([4]))
      expect(writes).not.toBe(Effect.void)
      expect(written.blocks).toBe(0)
      yield* writes
      expect(written.blocks).toBe(1)
      expect(samplesOf((yield* recording.wav)!)).toEqual([1, 2, 3, 4])
    })
  )

  it.scoped("cuts the agent's queued audio past the caller's clock on a clear, and clips the sum", () =>
    Effect.gen(function* () {
      const recording = yield* CallRecording.make(8000)
      yield* recording.caller(new Int16Array([0, 0]))
      yield* recording.agent(new Int16Array([30000, 30000, 5, 5, 5]))
      yield* recording.caller(new Int16Array([30000, 30000]))
      yield* recording.clear
      yield* recording.agent(new Int16Array([7]))
      expect(samplesOf((yield* recording.wav)!)).toEqual([0, 0, 32767, 32767, 7])
    })
  )

  it.scoped("records nothing when nothing was heard or said", () =>
    Effect.gen(function* () {
      const recording = yield* CallRecording.make(8000)
      expect(recording.seconds()).toBe(0)
      expect(yield* recording.wav).toBeNull()
    })
  )

  it.scoped("a long call holds about a second of audio in memory: the rest is spooled, the mix exact", () =>
    Effect.gen(function* () {
      const { recording, written } = yield* counted(8000)
      // two minutes: 20 ms caller frames, the agent speaking 100 ms every second, barge-ins now and then
      const expected = new Int16Array(2 * 60 * 8000)
      let clock = 0
      let agentAt = 0
      for (let second = 0; second < 120; second++) {
        const agent = new Int16Array(800).fill(second % 100)
        if (second % 7 === 0) {
          yield* recording.clear
          agentAt = clock
        }
        yield* recording.agent(agent)
        agentAt = Math.max(agentAt, clock)
        for (let i = 0; i < agent.length; i++) expected[agentAt + i]! += agent[i]!
        agentAt += agent.length
        for (let frame = 0; frame < 50; frame++) {
          const samples = new Int16Array(160).fill(1)
          yield* recording.caller(samples)
          for (let i = 0; i < 160; i++) expected[clock + i]! += 1
          clock += 160
        }
        expect(recording.samplesInMemory()).toBeLessThanOrEqual(3 * 8000)
      }
      expect(written.blocks).toBeGreaterThanOrEqual(2 * 119)
      const mixed = samplesOf((yield* recording.wav)!)
      expect(mixed.length).toBe(expected.length)
      expect(mixed.findIndex((sample, i) => sample !== expected[i])).toBe(-1)
    })
  )

  it.scoped("the mix lets other fibers run between its blocks", () =>
    Effect.gen(function* () {
      const recording = yield* CallRecording.make(8000)
      yield* recording.caller(new Int16Array(30 * 8000).fill(3))
      let ticks = 0
      const mixing = yield* Effect.fork(recording.wav)
      while (mixing.unsafePoll() === null) {
        ticks++
        yield* Effect.yieldNow()
      }
      expect(ticks).toBeGreaterThan(10)
      expect(samplesOf((yield* Fiber.join(mixing))!).length).toBe(30 * 8000)
    })
  )

  it.scoped("a spool that fails gives the recording up: none is stored, the call goes on", () =>
    Effect.gen(function* () {
      const recording = CallRecording.over(
        {
          write: () => Effect.fail(new RecordingSpool.RecordingSpoolFailed({ message: "disk full" })),
          read: () => Effect.succeed(null)
        },
        8000
      )
      yield* recording.caller(new Int16Array(20000))
      expect(yield* recording.wav).toBeNull()
    })
  )
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
