import { Context, type Effect, type Scope, type Stream } from "effect"
import type { SpeechToTextError } from "./SpeechToTextErrors.js"

/**
 * The speech-to-text port: a call's session is opened with its language and audio format; the caller's
 * audio is pushed in as it arrives and transcript events come out (interim text, final text, the end of
 * the caller's turn). Adapters: Deepgram's live streaming API (`@voice-agent-platform/voice`) and the
 * embedded stand-in (`EmbeddedSpeechToText`), which recognises no real speech. See docs/voice.md.
 */

/** How the audio pushed into a session is encoded. */
export type AudioEncoding =
  /** G.711 μ-law, one byte a sample: a phone call's audio (Twilio Media Streams). */
  | "mulaw"
  /** Signed 16-bit little-endian linear PCM: the browser session's audio. */
  | "linear16"

/** What a session is opened with. Audio is mono. */
export interface SessionOptions {
  /** A BCP-47 language tag (`en`, `en-US`, `pl`): the agent's language. */
  readonly language: string
  readonly encoding: AudioEncoding
  /** Samples a second: 8000 for μ-law phone audio, 16000 for the browser's PCM. */
  readonly sample_rate: number
}

/** A phone call's audio: μ-law, 8 kHz. */
export const phoneAudio = { encoding: "mulaw", sample_rate: 8000 } as const
/** The browser session's audio: 16-bit PCM, 16 kHz. */
export const browserAudio = { encoding: "linear16", sample_rate: 16000 } as const

/** What a session hears, in order. */
export type TranscriptEvent =
  /** A guess at the words being said now; a later interim or final replaces it. Never empty. */
  | { readonly _tag: "Interim"; readonly text: string }
  /**
   * Words that will not change, following the previous final ones. `speech_final`: the provider's
   * endpointing heard the caller pause after them (the end of the caller's turn). A final may be empty
   * when only its `speech_final` is news.
   */
  | { readonly _tag: "Final"; readonly text: string; readonly speech_final: boolean }
  /** The provider heard no words for a while after the last ones (the fallback end of the caller's turn). */
  | { readonly _tag: "UtteranceEnd" }

/** Whether an event ends the caller's turn: a final the provider marked `speech_final`, or an utterance end. */
export const endsTurn = (event: TranscriptEvent): boolean =>
  event._tag === "UtteranceEnd" || (event._tag === "Final" && event.speech_final)

/**
 * The caller's turn as it is heard: final words are kept, and the turn's text is given when an event ends
 * it (then the turn starts again empty). A turn ended with no final words gives nothing: an utterance end
 * right after a `speech_final` final is the same turn's end heard twice.
 */
export interface Turn {
  readonly finals: ReadonlyArray<string>
}

export const emptyTurn: Turn = { finals: [] }

/** The turn after `event`, and the text of the turn it ended (null when it ended none). */
export const hear = (turn: Turn, event: TranscriptEvent): readonly [Turn, string | null] => {
  const finals =
    event._tag === "Final" && event.text.trim() !== "" ? [...turn.finals, event.text.trim()] : turn.finals
  if (!endsTurn(event)) return [{ finals }, null]
  return [emptyTurn, finals.length === 0 ? null : finals.join(" ")]
}

/** One call's session with the provider. */
export interface Session {
  /**
   * Pushes audio (any length; 20 ms frames are usual) in the session's encoding. Audio pushed after
   * `finish` is dropped; after the session failed, the failure.
   */
  readonly send: (audio: Uint8Array) => Effect.Effect<void, SpeechToTextError>
  /**
   * What the provider hears, in order. It ends after `finish` once the provider has given its last
   * results, and fails with the session's error (a dropped connection, a finish past its deadline). Read
   * it once.
   */
  readonly events: Stream.Stream<TranscriptEvent, SpeechToTextError>
  /**
   * No more audio: asks the provider for its last results and waits, within the adapter's deadline, until
   * it has given them (the events have then ended). Calling it again waits the same way.
   */
  readonly finish: Effect.Effect<void, SpeechToTextError>
}

export class SpeechToText extends Context.Tag("@voice-agent-platform/core/SpeechToText")<
  SpeechToText,
  {
    /** The provider's name for logs and metrics (`deepgram`, `embedded`); never a key or an address. */
    readonly provider: string
    /**
     * A session, open until its scope closes (which closes the connection, finished or not). Fails when
     * the provider cannot be reached in time or refuses the session.
     */
    readonly open: (options: SessionOptions) => Effect.Effect<Session, SpeechToTextError, Scope.Scope>
  }
>() {}
