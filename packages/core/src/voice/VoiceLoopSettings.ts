import { Context, Layer } from "effect"

/**
 * The voice loop's timings, like `ChatSettings`: a `Context.Reference` with defaults, set by the server's
 * configuration once it is wired (`VOICE_SILENCE_SECONDS`).
 */

/** How long the caller may stay silent before one reprompt, then a goodbye (`VOICE_SILENCE_SECONDS`). */
export const defaultSilenceSeconds = 10

/** The bounds `VOICE_SILENCE_SECONDS` may take: 2 seconds to 10 minutes. */
export const minSilenceSeconds = 2
export const maxSilenceSeconds = 600

export interface VoiceLoopSetting {
  /** Silence, after the agent stopped speaking, that gets a reprompt (and, a second time, the end). */
  readonly silenceSeconds: number
  /**
   * The fallback end of the caller's turn: no word heard for this long after some were, and the provider
   * has not ended the turn itself (`speech_final` or an utterance end). Its words so far are the turn.
   */
  readonly turnEndFallbackMs: number
  /**
   * How long after a reply's audio should have finished playing its marks are waited for; past it, the
   * transport is taken to have played everything (a transport that echoes no marks).
   */
  readonly playbackGraceMs: number
  /**
   * How long, once the caller's side ended (a hang-up), the speech-to-text session's last results are
   * waited for: the caller's last words go into the transcript.
   */
  readonly lastWordsMs: number
  /** How often a live call reads its run in storage, to stop when the run was ended elsewhere. */
  readonly runPollMs: number
}

export const defaults: VoiceLoopSetting = {
  silenceSeconds: defaultSilenceSeconds,
  turnEndFallbackMs: 2000,
  playbackGraceMs: 2000,
  lastWordsMs: 5000,
  runPollMs: 5000
}

export class VoiceLoopSettings extends Context.Reference<VoiceLoopSettings>()(
  "@voice-agent-platform/core/VoiceLoopSettings",
  { defaultValue: (): VoiceLoopSetting => defaults }
) {}

/** Whether a number of seconds is a silence limit the settings take. */
export const isValidSilenceSeconds = (seconds: number): boolean =>
  Number.isInteger(seconds) && seconds >= minSilenceSeconds && seconds <= maxSilenceSeconds

export const layer = (setting: Partial<VoiceLoopSetting>): Layer.Layer<VoiceLoopSettings> =>
  Layer.succeed(VoiceLoopSettings, { ...defaults, ...setting })
