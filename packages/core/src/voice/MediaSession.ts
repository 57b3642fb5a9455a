import type { Effect, Stream } from "effect"
import { MediaSessionFailed } from "./LiveCallErrors.js"

/**
 * The media session port: one call's audio transport as the voice loop sees it, whatever carries it (a
 * Twilio Media Stream, the browser's socket). Audio is linear PCM16 mono inside the engine; the transport
 * converts at its edge (μ-law for Twilio). Inbound, what the caller's side sends; outbound, the agent's
 * audio, marks (to learn what was played) and `clear` (stop playing what is queued: a barge-in).
 */

/** What arrives from the caller's side, in order. */
export type InboundEvent =
  /** Caller audio: whole PCM16 mono samples at `sample_rate` (usually 20 ms). */
  | { readonly _tag: "Audio"; readonly sample_rate: number; readonly samples: Int16Array }
  /** A key pressed on the phone: `0`–`9`, `*`, `#`, `A`–`D`. */
  | { readonly _tag: "Dtmf"; readonly digit: string }
  /**
   * A mark sent earlier, echoed when the audio sent before it has been played (or, after a `clear`, dropped:
   * the transport echoes the marks it had queued then too).
   */
  | { readonly _tag: "Mark"; readonly name: string }
  /** The caller's side ended the stream (hung up, closed the page). No event follows. */
  | { readonly _tag: "Stopped" }

export interface MediaSession {
  /** The transport's audio rate (samples a second): 8000 for a phone call, 16000 for the browser. */
  readonly sample_rate: number
  /** What the caller's side sends, until `Stopped` (then the stream ends). Read once. */
  readonly events: Stream.Stream<InboundEvent, MediaSessionFailed>
  /** Queues the agent's audio (PCM16 mono at `sample_rate`) to be played after what is queued. */
  readonly sendAudio: (samples: Int16Array) => Effect.Effect<void, MediaSessionFailed>
  /** Queues a mark: the transport echoes it (`Mark`) once the audio queued before it has been played. */
  readonly sendMark: (name: string) => Effect.Effect<void, MediaSessionFailed>
  /** Drops the audio queued and not yet played (a barge-in). */
  readonly clear: Effect.Effect<void, MediaSessionFailed>
}
