import { Context, Effect, Stream } from "effect"
import { SpeechTextTooLong, type TextToSpeechError } from "./TextToSpeechErrors.js"

/**
 * The text-to-speech port: a sentence goes in, the provider's audio comes out as a stream of linear PCM16
 * mono chunks, each passed on as soon as the provider sends it (the first one long before the last is
 * synthesized). Interrupting the stream (a barge-in) stops it and aborts the exchange with the provider.
 * Adapters: `OpenAiSpeech` and `ElevenLabsSpeech` (`@voice-agent-platform/voice`). See docs/voice.md.
 */

/** One piece of audio as it arrived: whole samples, little-endian PCM16 mono at `sample_rate`. */
export interface SpeechChunk {
  /** Samples per second, the same for every chunk of one adapter (`TextToSpeech.sample_rate`). */
  readonly sample_rate: number
  readonly samples: Int16Array
}

/** The per-call choices (an agent's voice and language); the deployment's defaults otherwise. */
export interface SpeechOptions {
  /** The provider's voice name or id (an agent's `voice`); default the adapter's (`TTS_VOICE`). */
  readonly voice?: string | undefined
  /** The language of the text, BCP 47 (`pl`, `en-US`), for providers that take one. */
  readonly language?: string | undefined
}

/**
 * The longest text spoken at once, in characters (UTF-16 code units): OpenAI's own limit for
 * `/audio/speech`, below ElevenLabs'. The voice loop speaks a reply sentence by sentence, far below it.
 */
export const maxTextLength = 4096

export interface Service {
  /** The provider's name in spans, metrics and logs (`openai`, `elevenlabs`). */
  readonly provider: string
  /** The sample rate of every chunk this adapter gives. */
  readonly sample_rate: number
  /**
   * The text spoken. Fails with `SpeechTextTooLong` past `maxTextLength` (before anything is sent); a
   * blank text is an empty stream (nothing is sent).
   */
  readonly synthesize: (
    text: string,
    options?: SpeechOptions
  ) => Stream.Stream<SpeechChunk, TextToSpeechError>
}

export class TextToSpeech extends Context.Tag("@voice-agent-platform/core/TextToSpeech")<
  TextToSpeech,
  Service
>() {}

/**
 * The rule every adapter applies before sending: a text past `maxTextLength` fails, a blank one is spoken
 * as nothing, any other goes to `speak` unchanged.
 */
export const bounded =
  (speak: (text: string, options: SpeechOptions) => Stream.Stream<SpeechChunk, TextToSpeechError>) =>
  (text: string, options: SpeechOptions = {}): Stream.Stream<SpeechChunk, TextToSpeechError> =>
    text.length > maxTextLength
      ? Stream.fail(new SpeechTextTooLong({ length: text.length, max: maxTextLength }))
      : text.trim() === ""
        ? Stream.empty
        : speak(text, options)

/** Every sample of a synthesis, in one array (tests and whole-sentence uses). */
export const collectSamples = <E>(stream: Stream.Stream<SpeechChunk, E>): Effect.Effect<Int16Array, E> =>
  Effect.map(
    Stream.runFold(stream, [] as Array<Int16Array>, (all, chunk) => {
      all.push(chunk.samples)
      return all
    }),
    (all) => {
      const joined = new Int16Array(all.reduce((sum, part) => sum + part.length, 0))
      let at = 0
      for (const part of all) {
        joined.set(part, at)
        at += part.length
      }
      return joined
    }
  )
