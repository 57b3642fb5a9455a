import type { Either, Fiber } from "effect"
import type { ReplyEnd } from "../conversation/ConversationEngine.js"
import type { InboundEvent } from "./MediaSession.js"
import type { MediaSessionFailed } from "./LiveCallErrors.js"
import type { TranscriptEvent } from "./SpeechToText.js"
import type { SpeechToTextError } from "./SpeechToTextErrors.js"
import type * as TurnLatency from "./TurnLatency.js"
import type { SpeakerEvent, VoiceReplyError } from "./VoiceReply.js"

/**
 * What the voice loop's one control fiber handles, one at a time (`VoiceLoop`): what the provider heard,
 * the caller's side, the speaking reply's progress, timers; and the loop's record of the reply it speaks.
 */

export type LoopEvent =
  | { readonly _tag: "Heard"; readonly event: TranscriptEvent }
  | { readonly _tag: "HearingEnded"; readonly error: SpeechToTextError | null }
  | { readonly _tag: "Media"; readonly event: Exclude<InboundEvent, { _tag: "Audio" }> }
  | { readonly _tag: "MediaEnded"; readonly error: MediaSessionFailed | null }
  | { readonly _tag: "Speaker"; readonly reply: number; readonly event: SpeakerEvent }
  | {
      readonly _tag: "ReplyEnded"
      readonly reply: number
      readonly result: Either.Either<{ readonly end: ReplyEnd | null }, VoiceReplyError>
    }
  | { readonly _tag: "Timer"; readonly kind: TimerKind; readonly generation: number }
  /** A fiber of the loop died (a defect): the call ends. */
  | { readonly _tag: "Died"; readonly source: "speech_to_text" | "media" | "reply" }

export type TimerKind = "silence" | "turn" | "playback"

/** A reply being spoken, or spoken and waiting for its marks. */
export interface Speaking {
  readonly id: number
  readonly kind: "greeting" | "answer" | "reprompt" | "goodbye"
  readonly fiber: Fiber.RuntimeFiber<void>
  readonly startedAt: number
  readonly sentences: Array<{ readonly mark: string; readonly text: string }>
  readonly played: Set<string>
  samples: number
  done: boolean
  end: ReplyEnd | null
  /** The caller turn it answers, until its latency was reported. */
  moments: { -readonly [K in keyof TurnLatency.TurnMoments]: TurnLatency.TurnMoments[K] } | null
}

/** Notes a speaker's event on its reply; true when its first frame went out (its latency is then known). */
export const noteSpeaker = (speaking: Speaking, event: SpeakerEvent): boolean => {
  const moments = speaking.moments
  switch (event._tag) {
    case "FirstToken":
      if (moments !== null) moments.firstToken = event.at
      return false
    case "FirstAudio":
      if (moments !== null) moments.firstAudio = event.at
      return false
    case "FirstFrame":
      if (moments !== null) moments.firstFrame = event.at
      return true
    case "SentenceSent":
      speaking.sentences.push({ mark: event.mark, text: event.text })
      speaking.samples += event.samples
      return false
    case "Usage":
      return false
  }
}
