import { Effect, Layer } from "effect"
import * as EventQueue from "./EventQueue.js"
import { type Session, SpeechToText, type TranscriptEvent } from "./SpeechToText.js"

/**
 * The embedded speech-to-text stand-in, the default (`STT_PROVIDER=embedded`). It recognises NO real
 * speech: audio pushed into a session is accepted and ignored. It serves the simulator and tests, which
 * push "text frames" (`textFrame`): a frame that says which words the caller speaks, heard as a provider
 * hears them (interims of the growing words, the final words marked `speech_final`, an utterance end).
 * Nothing connects anywhere; a session cannot fail.
 */

export const provider = "embedded"

/** What starts a text frame: bytes no audio frame begins with in practice (NUL, "VAP-TEXT", NUL). */
const marker = new Uint8Array([0, 0x56, 0x41, 0x50, 0x2d, 0x54, 0x45, 0x58, 0x54, 0])

/** A frame that makes the embedded session hear `text` (the caller's words, as the simulator scripts them). */
export const textFrame = (text: string): Uint8Array => {
  const words = new TextEncoder().encode(text)
  const frame = new Uint8Array(marker.length + words.length)
  frame.set(marker)
  frame.set(words, marker.length)
  return frame
}

/** The words of a text frame; null for any other frame (audio). */
export const textOfFrame = (frame: Uint8Array): string | null => {
  if (frame.length < marker.length || marker.some((byte, index) => frame[index] !== byte)) return null
  return new TextDecoder().decode(frame.subarray(marker.length))
}

/** What a provider would send hearing `text` spoken then a pause: interims word by word, the final, the end. */
export const eventsOf = (text: string): ReadonlyArray<TranscriptEvent> => {
  const words = text.split(/\s+/).filter((word) => word !== "")
  if (words.length === 0) return []
  return [
    ...words.slice(0, -1).map((_, index): TranscriptEvent => ({
      _tag: "Interim",
      text: words.slice(0, index + 1).join(" ")
    })),
    { _tag: "Final", text: words.join(" "), speech_final: true },
    { _tag: "UtteranceEnd" }
  ]
}

const open = Effect.gen(function* () {
  const queue = EventQueue.make<TranscriptEvent, never>()
  // the session closed: a reader still waiting sees the end
  yield* Effect.addFinalizer(() => Effect.sync(queue.end))
  const session: Session = {
    send: (audio) =>
      Effect.sync(() => {
        const text = queue.isDone() ? null : textOfFrame(audio)
        if (text !== null) for (const event of eventsOf(text)) queue.offer(event)
      }),
    events: queue.stream,
    finish: Effect.sync(queue.end)
  }
  return session
})

export const make: SpeechToText["Type"] = { provider, open: () => open }

export const layer: Layer.Layer<SpeechToText> = Layer.succeed(SpeechToText, make)
