import type { TranscriptEvent } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { SpeechToTextUnavailable } from "@voice-agent-platform/core/voice/SpeechToTextErrors.js"
import { Either, Schema } from "effect"

/**
 * What Deepgram's live API sends, as the port's events. `Results` carries words (`is_final`,
 * `speech_final`, `channel.alternatives[0].transcript`); `UtteranceEnd` says no words came for
 * `utterance_end_ms`. Other types (`Metadata`, `SpeechStarted`, any added later) are skipped. A frame that
 * is not Deepgram's protocol — not JSON, no `type`, a `Results` of another shape, a binary frame — is an
 * error that ends the session (`SpeechToTextUnavailable`): skipping it would leave the call silently deaf
 * to what the caller said.
 */

const Results = Schema.Struct({
  type: Schema.Literal("Results"),
  is_final: Schema.Boolean,
  // sent with every result when endpointing is on; absent means not the end of speech
  speech_final: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  channel: Schema.Struct({
    alternatives: Schema.Array(Schema.Struct({ transcript: Schema.String }))
  })
})

const decodeResults = Schema.decodeUnknownEither(Results)

const malformed = (what: string) =>
  new SpeechToTextUnavailable({ reason: `the provider sent ${what}, which is not its streaming protocol` })

/** A text frame's event: the event, null for a frame that carries none, or the protocol error. */
export const eventOf = (text: string): Either.Either<TranscriptEvent | null, SpeechToTextUnavailable> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left(malformed("a message that is not JSON"))
  }
  const type =
    typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)["type"]
      : undefined
  if (typeof type !== "string") return Either.left(malformed("a message without a type"))
  if (type === "UtteranceEnd") return Either.right({ _tag: "UtteranceEnd" })
  if (type === "Error") {
    // its words are the provider's and are not repeated
    return Either.left(
      new SpeechToTextUnavailable({ reason: "the provider reported an error in the stream" })
    )
  }
  if (type !== "Results") return Either.right(null)
  const decoded = decodeResults(json)
  if (Either.isLeft(decoded)) return Either.left(malformed("a Results message of another shape"))
  const results = decoded.right
  const transcript = (results.channel.alternatives[0]?.transcript ?? "").trim()
  if (!results.is_final) return Either.right(transcript === "" ? null : { _tag: "Interim", text: transcript })
  if (transcript === "" && !results.speech_final) return Either.right(null)
  return Either.right({ _tag: "Final", text: transcript, speech_final: results.speech_final })
}

/** The message that keeps an idle stream open (Deepgram closes one that has had nothing for 10 s). */
export const keepAlive = JSON.stringify({ type: "KeepAlive" })

/** The message that ends the audio: Deepgram sends its last results, then closes the connection. */
export const closeStream = JSON.stringify({ type: "CloseStream" })
