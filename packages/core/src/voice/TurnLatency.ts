/**
 * A turn's latencies, as the run's logs and the metrics will keep them: from the moment the caller stopped
 * speaking (the last words heard; a key pressed) to each step of the answer. Every figure is in
 * milliseconds since `caller_stopped_at`; a step the turn never reached (the reply was interrupted, it
 * said nothing) is null.
 */
export interface TurnLatency {
  /** The caller's turn, from 1 (the greeting is not one). */
  readonly turn: number
  readonly caller_stopped_at: Date
  /** The turn's transcript final (the provider's endpointing, the fallback, or the key itself: 0). */
  readonly transcript_final_ms: number
  /** The model's first word of the reply. */
  readonly first_token_ms: number | null
  /** The first audio byte from text to speech. */
  readonly first_audio_ms: number | null
  /** The first audio frame handed to the transport. */
  readonly first_frame_ms: number | null
}

/** The moments (epoch milliseconds) a turn went through; null for those not reached. */
export interface TurnMoments {
  readonly turn: number
  readonly callerStopped: number
  readonly transcriptFinal: number
  readonly firstToken: number | null
  readonly firstAudio: number | null
  readonly firstFrame: number | null
}

const since = (start: number, at: number | null) => (at === null ? null : Math.max(0, at - start))

/** The record of a turn's moments. */
export const of = (moments: TurnMoments): TurnLatency => ({
  turn: moments.turn,
  caller_stopped_at: new Date(moments.callerStopped),
  transcript_final_ms: Math.max(0, moments.transcriptFinal - moments.callerStopped),
  first_token_ms: since(moments.callerStopped, moments.firstToken),
  first_audio_ms: since(moments.callerStopped, moments.firstAudio),
  first_frame_ms: since(moments.callerStopped, moments.firstFrame)
})
