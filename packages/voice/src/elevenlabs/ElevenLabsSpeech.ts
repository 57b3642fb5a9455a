import { bounded, type SpeechOptions, TextToSpeech } from "@voice-agent-platform/core/voice/TextToSpeech.js"
import { Config, type ConfigError, Effect, Layer, Redacted, Stream } from "effect"
import * as SpeechExchange from "../speech-http/SpeechExchange.js"
import * as SpeechOptionsModule from "../speech-http/SpeechOptions.js"

/**
 * The `TextToSpeech` port over ElevenLabs' streaming HTTP endpoint:
 * `POST {baseUrl}/v1/text-to-speech/{voice_id}/stream?output_format=pcm_{rate}` with the key in
 * `xi-api-key` and `{text, model_id}` (plus `language_code`, an ISO 639-1 code, when the call names a
 * language), answered with raw little-endian PCM16 mono at `rate` (16 kHz by default), chunked as it is
 * synthesized. See docs/voice.md ("Text to speech").
 */

/** The provider's name in spans, metrics and logs. */
export const provider = "elevenlabs"

/** The PCM rates ElevenLabs offers (`pcm_16000` …). */
export const sampleRates = [8000, 16_000, 22_050, 24_000, 44_100] as const
export type SampleRate = (typeof sampleRates)[number]

export interface Options extends SpeechOptionsModule.Bounds {
  /** Default `https://api.elevenlabs.io`: an http(s) URL without credentials; `/v1/text-to-speech/…` is appended. */
  readonly baseUrl?: string
  /** Sent as `xi-api-key`; ElevenLabs needs one. */
  readonly apiKey: Redacted.Redacted<string>
  /** `model_id`. Default `eleven_flash_v2_5` (the low-latency multilingual model). */
  readonly model?: string
  /** The voice id when a call names none. Default `21m00Tcm4TlvDq8ikWAM` (ElevenLabs' "Rachel"). */
  readonly voice?: string
  /** The PCM rate asked for. Default 16000. */
  readonly sampleRate?: SampleRate
}

export const defaults = {
  baseUrl: "https://api.elevenlabs.io",
  model: "eleven_flash_v2_5",
  voice: "21m00Tcm4TlvDq8ikWAM",
  sampleRate: 16_000
} as const

/** The ISO 639-1 code of a BCP 47 language (`pl-PL` → `pl`), or none when it has no two-letter one. */
export const languageCode = (language: string | undefined): string | undefined => {
  const primary = language?.trim().split(/[-_]/)[0]?.toLowerCase()
  return primary !== undefined && /^[a-z]{2}$/.test(primary) ? primary : undefined
}

/** The service. */
export const make = (
  options: Options
): Effect.Effect<TextToSpeech["Type"], SpeechOptionsModule.InvalidOptions> =>
  Effect.gen(function* () {
    const baseUrl = options.baseUrl ?? defaults.baseUrl
    const model = options.model ?? defaults.model
    const defaultVoice = options.voice ?? defaults.voice
    const sampleRate = options.sampleRate ?? defaults.sampleRate
    if (!SpeechOptionsModule.isBaseUrl(baseUrl)) {
      return yield* new SpeechOptionsModule.InvalidOptions({
        reason: "baseUrl must be an http(s) URL without credentials"
      })
    }
    if (Redacted.value(options.apiKey) === "") {
      return yield* new SpeechOptionsModule.InvalidOptions({ reason: "the API key is empty" })
    }
    if (model === "") return yield* new SpeechOptionsModule.InvalidOptions({ reason: "model is empty" })
    if (defaultVoice === "")
      return yield* new SpeechOptionsModule.InvalidOptions({ reason: "voice is empty" })
    if (!sampleRates.includes(sampleRate)) {
      return yield* new SpeechOptionsModule.InvalidOptions({
        reason: `sampleRate must be one of ${sampleRates.join(", ")}`
      })
    }
    const bounds = SpeechOptionsModule.checkedBounds(options)
    if (bounds instanceof SpeechOptionsModule.InvalidOptions) return yield* bounds
    const base = SpeechOptionsModule.trimmed(baseUrl)
    const headers = {
      "content-type": "application/json",
      accept: "audio/pcm, application/octet-stream",
      "xi-api-key": Redacted.value(options.apiKey)
    }
    const speak = (text: string, call: SpeechOptions) => {
      const voice = call.voice === undefined || call.voice === "" ? defaultVoice : call.voice
      const language_code = languageCode(call.language)
      return SpeechExchange.stream({
        url: `${base}/v1/text-to-speech/${encodeURIComponent(voice)}/stream?output_format=pcm_${sampleRate}`,
        headers,
        body: JSON.stringify({
          text,
          model_id: model,
          ...(language_code === undefined ? {} : { language_code })
        }),
        sampleRate,
        ...bounds,
        context: { keyVariable: "ELEVENLABS_API_KEY", voice, model, textLength: text.length }
      }).pipe(
        Stream.withSpan("TextToSpeech.synthesize", {
          attributes: { provider, model, voice, characters: text.length }
        })
      )
    }
    return { provider, sample_rate: sampleRate, synthesize: bounded(speak) }
  })

/** The adapter as the `TextToSpeech` layer. */
export const layer = (options: Options): Layer.Layer<TextToSpeech, SpeechOptionsModule.InvalidOptions> =>
  Layer.effect(TextToSpeech, make(options))

/**
 * The options from the environment: `ELEVENLABS_API_KEY` (required), `ELEVENLABS_BASE_URL` (default
 * ElevenLabs' API), `TTS_MODEL` (default `eleven_flash_v2_5`), `TTS_VOICE` (a voice id; default Rachel's).
 */
export const config: Config.Config<Options> = Config.all({
  apiKey: Config.redacted("ELEVENLABS_API_KEY").pipe(
    Config.validate({
      message: "ELEVENLABS_API_KEY is empty",
      validation: (key) => Redacted.value(key) !== ""
    })
  ),
  baseUrl: SpeechOptionsModule.baseUrlConfig("ELEVENLABS_BASE_URL", defaults.baseUrl),
  model: Config.nonEmptyString("TTS_MODEL").pipe(Config.withDefault(defaults.model)),
  voice: Config.nonEmptyString("TTS_VOICE").pipe(Config.withDefault(defaults.voice))
})

/** The adapter configured from the environment (see `config`). */
export const layerConfig: Layer.Layer<
  TextToSpeech,
  ConfigError.ConfigError | SpeechOptionsModule.InvalidOptions
> = Layer.unwrapEffect(Effect.map(config, layer))
