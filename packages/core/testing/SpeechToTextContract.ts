import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, Fiber, type Layer, Stream } from "effect"
import {
  browserAudio,
  emptyTurn,
  hear,
  phoneAudio,
  type SessionOptions,
  SpeechToText,
  type TranscriptEvent
} from "../src/voice/SpeechToText.js"

/** The adapter under test and how to make it hear words. */
export interface SpeechToTextContractOptions<R> {
  /** The `SpeechToText` (and whatever `utterance` needs, such as a fake server's control). */
  readonly layer: Layer.Layer<SpeechToText | R, unknown>
  /**
   * The audio frames that make the next session opened with `options` hear `text` spoken and then a pause
   * (an adapter over a scripted server scripts the server and returns silence of the right length; the
   * embedded stand-in returns a text frame). Called once before the session is opened.
   */
  readonly utterance: (
    text: string,
    options: SessionOptions
  ) => Effect.Effect<ReadonlyArray<Uint8Array>, never, R>
}

/** The phrases the cases speak, as constants an adapter's own tests may reuse. */
export const phrases = {
  english: "I would like to book a cleaning next Tuesday",
  polish: "Dzień dobry, chciałabym umówić wizytę"
} as const

/** Every event of a session that hears `frames` then is finished, and the turns it heard. */
const sessionHearing = (options: SessionOptions, frames: ReadonlyArray<Uint8Array>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const stt = yield* SpeechToText
      const session = yield* stt.open(options)
      const reading = yield* Effect.fork(Stream.runCollect(session.events))
      for (const frame of frames) yield* session.send(frame)
      yield* session.finish
      const events = Chunk.toReadonlyArray(yield* Fiber.join(reading))
      return { events, turns: turnsOf(events) }
    })
  )

const turnsOf = (events: ReadonlyArray<TranscriptEvent>) => {
  const turns: Array<string> = []
  let turn = emptyTurn
  for (const event of events) {
    const [next, ended] = hear(turn, event)
    turn = next
    if (ended !== null) turns.push(ended)
  }
  return turns
}

const expectWellFormed = (events: ReadonlyArray<TranscriptEvent>) => {
  for (const event of events) {
    if (event._tag === "Interim") expect(event.text.trim(), "an interim is never empty").not.toBe("")
  }
}

/**
 * The behaviour every `SpeechToText` adapter must have, written once and run against each: Deepgram's
 * adapter over the fake server (`packages/voice`) and the embedded stand-in (core). Call it at the top
 * level of a test file. The cases:
 *
 * - a phone call's turn (μ-law 8 kHz, English): the final words make the spoken phrase, the turn ends
 *   (`speech_final` or an utterance end), interims are never empty, and the events end after `finish`;
 * - a browser turn (16-bit PCM 16 kHz, Polish): the same, the words kept as spoken (diacritics too);
 * - a session finished without audio: no events, `finish` again is harmless;
 * - audio after `finish` is dropped without an error.
 */
export const speechToTextContract = <R>(name: string, options: SpeechToTextContractOptions<R>) =>
  describe(`SpeechToText contract: ${name}`, () => {
    layer(options.layer, { timeout: "60 seconds", excludeTestServices: true })((it) => {
      it.effect("hears a phone caller's turn, then ends after finish", () =>
        Effect.gen(function* () {
          const audio: SessionOptions = { language: "en", ...phoneAudio }
          const frames = yield* options.utterance(phrases.english, audio)
          const { events, turns } = yield* sessionHearing(audio, frames)
          expectWellFormed(events)
          expect(turns).toEqual([phrases.english])
        })
      )

      it.effect("hears a browser caller's turn in Polish", () =>
        Effect.gen(function* () {
          const audio: SessionOptions = { language: "pl", ...browserAudio }
          const frames = yield* options.utterance(phrases.polish, audio)
          const { events, turns } = yield* sessionHearing(audio, frames)
          expectWellFormed(events)
          expect(turns).toEqual([phrases.polish])
        })
      )

      it.effect("a session finished without audio hears nothing, and finishing again is harmless", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const stt = yield* SpeechToText
            const session = yield* stt.open({ language: "en", ...phoneAudio })
            const reading = yield* Effect.fork(Stream.runCollect(session.events))
            yield* session.finish
            expect(Chunk.toReadonlyArray(yield* Fiber.join(reading))).toEqual([])
            yield* session.finish
          })
        )
      )

      it.effect("audio after finish is dropped without an error", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const stt = yield* SpeechToText
            const session = yield* stt.open({ language: "en", ...phoneAudio })
            const reading = yield* Effect.fork(Stream.runCollect(session.events))
            yield* session.finish
            yield* session.send(new Uint8Array(160).fill(0xff))
            expect(Chunk.toReadonlyArray(yield* Fiber.join(reading))).toEqual([])
          })
        )
      )
    })
  })
