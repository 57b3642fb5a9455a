import { bounded, type SpeechOptions, TextToSpeech } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { Config, type ConfigError, Effect, Layer, Redacted, Stream } from "effect"
import * as SpeechExchange from "../speech-http/SpeechExchange.js"
import * as SpeechOptionsModule from "../speech-http/SpeechOptions.js"

/**
 * The `TextToSpeech` port over an OpenAI-compatible speech endpoint: `POST {baseUrl}/audio/speech` with
 * `{model, input, voice, response_format: "pcm"}`, answered with raw 24 kHz little-endian PCM16 mono,
 * streamed (chunked) as it is synthesized. OpenAI's endpoint takes no language: the model speaks the text's
 * own language, so `language` is not sent. See docs/voice.md ("Text to speech").
 */

/** The provider's name in spans, metrics and logs. */
export const provider = "openai"

/** The rate of OpenAI's `pcm` format. */
export const sampleRate = 24_000

export interface Options extends SpeechOptionsModule.Bounds {
  /** Default `https://api.openai.com/v1`: an http(s) URL without credentials; `/audio/speech` is appended. */
  readonly baseUrl?: string
  /** Sent as `Authorization: Bearer …`; none: no header (a local server may need none). */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** Default `gpt-4o-mini-tts`. */
  readonly model?: string
  /** The voice when a call names none. Default `alloy`. */
  readonly voice?: string
}

export const defaults = {
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-4o-mini-tts",
  voice: "alloy"
} as const

/** The service. */
export const make = (
  options: Options = {}
): Effect.Effect<TextToSpeech["Type"], SpeechOptionsModule.InvalidOptions> =>
  Effect.gen(function* () {
    const baseUrl = options.baseUrl ?? defaults.baseUrl
    const model = options.model ?? defaults.model
    const defaultVoice = options.voice ?? defaults.voice
    if (!SpeechOptionsModule.isBaseUrl(baseUrl)) {
      return yield* new SpeechOptionsModule.InvalidOptions({
        reason: "baseUrl must be an http(s) URL without credentials"
      })
    }
    if (model === "") return yield* new SpeechOptionsModule.InvalidOptions({ reason: "model is empty" })
    if (defaultVoice === "")
      return yield* new SpeechOptionsModule.InvalidOptions({ reason: "voice is empty" })
    const bounds = SpeechOptionsModule.checkedBounds(options)
    if (bounds instanceof SpeechOptionsModule.InvalidOptions) return yield* bounds
    const url = `${SpeechOptionsModule.trimmed(baseUrl)}/audio/speech`
    const headers = {
      "content-type": "application/json",
      accept: "audio/pcm, application/octet-stream",
      ...(options.apiKey === undefined || Redacted.value(options.apiKey) === ""
        ? {}
        : { authorization: `Bearer ${Redacted.value(options.apiKey)}` })
    }
    const speak = (text: string, call: SpeechOptions) => {
      const voice = call.voice === undefined || call.voice === "" ? defaultVoice : call.voice
      return SpeechExchange.stream({
        url,
        headers,
        body: JSON.stringify({ model, input: text, voice, response_format: "pcm" }),
        sampleRate,
        ...bounds,
        context: { keyVariable: "TTS_API_KEY", voice, model, textLength: text.length }
      }).pipe(
        Stream.withSpan("TextToSpeech.synthesize", {
          attributes: { provider, model, voice, characters: text.length }
        })
      )
    }
    return { provider, sample_rate: sampleRate, synthesize: bounded(speak) }
  })

/** The adapter as the `TextToSpeech` layer. */
export const layer = (options: Options = {}): Layer.Layer<TextToSpeech, SpeechOptionsModule.InvalidOptions> =>
  Layer.effect(TextToSpeech, make(options))

/**
 * The options from the environment: `TTS_BASE_URL` (default the OpenAI API), `TTS_API_KEY` (none: no
 * `Authorization`), `TTS_MODEL` (default `gpt-4o-mini-tts`), `TTS_VOICE` (default `alloy`).
 */
export const config: Config.Config<Options> = Config.all({
  baseUrl: SpeechOptionsModule.baseUrlConfig("TTS_BASE_URL", defaults.baseUrl),
  apiKey: SpeechOptionsModule.keyConfig("TTS_API_KEY"),
  model: Config.nonEmptyString("TTS_MODEL").pipe(Config.withDefault(defaults.model)),
  voice: Config.nonEmptyString("TTS_VOICE").pipe(Config.withDefault(defaults.voice))
})

/** The adapter configured from the environment (see `config`). */
export const layerConfig: Layer.Layer<
  TextToSpeech,
  ConfigError.ConfigError | SpeechOptionsModule.InvalidOptions
> = Layer.unwrapEffect(Effect.map(config, layer))
