import type { VoiceReplyError } from "./VoiceReply.js"

/** Why a call's voice loop ended: what its caller hangs up (or transfers) with. */
export type VoiceLoopEnd =
  | { readonly reason: "end_call" }
  | { readonly reason: "transfer"; readonly destination_number: string }
  /** The caller stayed silent through the reprompt. */
  | { readonly reason: "silence" }
  /** The caller's side stopped the stream. */
  | { readonly reason: "hangup" }
  /** The run was ended elsewhere (an end request, the carrier's final status on another server, its deadline). */
  | { readonly reason: "run_ended" }
  | {
      readonly reason: "error"
      /** `voice_loop`: a defect in the loop itself (logged). */
      readonly source: "speech_to_text" | "text_to_speech" | "model" | "media" | "voice_loop"
      /** The error's tag (`SpeechToTextDropped`, `ModelDeadline`, `Defect`): never a key or a provider's words. */
      readonly error: string
    }

/** The end a failed reply gives: its error's tag, from the model, the speech or the transport. */
export const ofReplyError = (error: VoiceReplyError): VoiceLoopEnd => ({
  reason: "error",
  source:
    error._tag === "MediaSessionFailed"
      ? "media"
      : error._tag.startsWith("Model")
        ? "model"
        : "text_to_speech",
  error: error._tag
})
