import { CarrierTimings, StreamToken, VoiceLoopSettings } from "@voice-agent-platform/core"
import {
  DeepgramSpeechToText,
  ElevenLabsSpeech,
  OpenAiSpeech,
  TwilioRestClient
} from "@voice-agent-platform/voice"
import { Config, ConfigError, Duration, Effect, Either, Option, Redacted } from "effect"

/**
 * The voice settings of the bundled server (issue 27): which telephony places calls, and which speech
 * providers a real call hears and speaks with. `TELEPHONY=simulated` (the default) needs none of them;
 * `TELEPHONY=twilio` needs the Twilio account, the public address the carrier reaches this server at, and
 * the secret the media sockets' tokens are signed with. Keys are `Redacted`: never logged or shown.
 */

/** Where calls go. */
export type TelephonySettings =
  | { readonly kind: "simulated" }
  | {
      readonly kind: "twilio"
      /** `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`, `TWILIO_API_BASE_URL`. */
      readonly twilio: TwilioRestClient.Options
      /** `TWILIO_DEFAULT_FROM`: the caller id when the call names none and the organization has no number. */
      readonly defaultFrom: Option.Option<string>
      /** `PUBLIC_BASE_URL`: the carrier's callbacks and the media socket are addressed under it. */
      readonly publicBaseUrl: string
      /** `MEDIA_STREAM_SECRET`: signs the media sockets' tokens; the same on every server behind the address. */
      readonly mediaStreamSecret: Redacted.Redacted<string>
      /** `CARRIER_LOST_DIAL_CHECK_SECONDS`, `CARRIER_FINAL_STATUS_CHECK_SECONDS`. */
      readonly carrierTimings: CarrierTimings.Timings
    }

/** What a real call hears with (`STT_PROVIDER`). */
export type SpeechToTextSettings =
  | { readonly kind: "embedded" }
  | { readonly kind: "deepgram"; readonly options: DeepgramSpeechToText.Options }

/** What a real call speaks with (`TTS_PROVIDER`). */
export type TextToSpeechSettings =
  | { readonly kind: "embedded" }
  | { readonly kind: "openai"; readonly options: OpenAiSpeech.Options }
  | { readonly kind: "elevenlabs"; readonly options: ElevenLabsSpeech.Options }

export interface VoiceSettings {
  readonly telephony: TelephonySettings
  readonly speechToText: SpeechToTextSettings
  readonly textToSpeech: TextToSpeechSettings
  /** `VOICE_SILENCE_SECONDS`: silence before one reprompt, then the end (default 10). */
  readonly silenceSeconds: number
}

const e164 = /^\+[1-9][0-9]{1,14}$/

/** An http(s) URL without credentials, query or fragment (a path prefix allowed, no trailing slash kept). */
const publicUrl = (value: string): Option.Option<string> => {
  try {
    const url = new URL(value)
    if (url.protocol !== "http:" && url.protocol !== "https:") return Option.none()
    if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "")
      return Option.none()
    return Option.some(`${url.origin}${url.pathname.replace(/\/+$/, "")}`)
  } catch {
    return Option.none()
  }
}

const missing = (name: string, why: string) =>
  Either.left(ConfigError.MissingData([name], `${name} is required ${why}`))
const invalid = (name: string, message: string) => Either.left(ConfigError.InvalidData([name], message))

/** `TELEPHONY` and, with `twilio`, what it needs; a missing or malformed one stops the server, naming it. */
export const telephonyConfig: Config.Config<TelephonySettings> = Config.all({
  kind: Config.literal("simulated", "twilio")("TELEPHONY").pipe(Config.withDefault("simulated" as const)),
  accountSid: Config.option(Config.nonEmptyString("TWILIO_ACCOUNT_SID")),
  authToken: Config.option(Config.redacted("TWILIO_AUTH_TOKEN")),
  baseUrl: Config.nonEmptyString("TWILIO_API_BASE_URL").pipe(
    Config.withDefault(TwilioRestClient.defaults.baseUrl)
  ),
  defaultFrom: Config.option(Config.nonEmptyString("TWILIO_DEFAULT_FROM")),
  publicBaseUrl: Config.option(Config.nonEmptyString("PUBLIC_BASE_URL")),
  secret: Config.option(Config.redacted("MEDIA_STREAM_SECRET")),
  lostDialCheck: Config.number("CARRIER_LOST_DIAL_CHECK_SECONDS").pipe(
    Config.withDefault(Duration.toSeconds(CarrierTimings.defaults.lostDialCheck))
  ),
  finalStatusCheck: Config.number("CARRIER_FINAL_STATUS_CHECK_SECONDS").pipe(
    Config.withDefault(Duration.toSeconds(CarrierTimings.defaults.finalStatusCheck))
  )
}).pipe(
  Config.mapOrFail((read): Either.Either<TelephonySettings, ConfigError.ConfigError> => {
    if (read.kind === "simulated") return Either.right({ kind: "simulated" })
    const why = "with TELEPHONY=twilio"
    if (Option.isNone(read.accountSid)) return missing("TWILIO_ACCOUNT_SID", why)
    if (!/^AC[0-9a-f]{32}$/.test(read.accountSid.value)) {
      return invalid("TWILIO_ACCOUNT_SID", "TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits")
    }
    if (Option.isNone(read.authToken) || Redacted.value(read.authToken.value) === "") {
      return missing("TWILIO_AUTH_TOKEN", why)
    }
    if (!TwilioRestClient.isBaseUrl(read.baseUrl)) {
      return invalid("TWILIO_API_BASE_URL", "TWILIO_API_BASE_URL must be an http(s) URL without credentials")
    }
    if (Option.isSome(read.defaultFrom) && !e164.test(read.defaultFrom.value)) {
      return invalid("TWILIO_DEFAULT_FROM", "TWILIO_DEFAULT_FROM must be an E.164 number, e.g. +48221234567")
    }
    if (Option.isNone(read.publicBaseUrl)) {
      return missing(
        "PUBLIC_BASE_URL",
        `${why}: the carrier's callbacks and the media stream are addressed under it`
      )
    }
    const base = publicUrl(read.publicBaseUrl.value)
    if (Option.isNone(base)) {
      return invalid(
        "PUBLIC_BASE_URL",
        "PUBLIC_BASE_URL must be an http(s) URL without credentials, query or fragment"
      )
    }
    if (Option.isNone(read.secret)) {
      return missing(
        "MEDIA_STREAM_SECRET",
        `${why}: it signs the media sockets' tokens (every server needs the same one)`
      )
    }
    if (new TextEncoder().encode(Redacted.value(read.secret.value)).length < StreamToken.minimumSecretBytes) {
      return invalid(
        "MEDIA_STREAM_SECRET",
        `MEDIA_STREAM_SECRET must be at least ${StreamToken.minimumSecretBytes} bytes`
      )
    }
    for (const [name, seconds] of [
      ["CARRIER_LOST_DIAL_CHECK_SECONDS", read.lostDialCheck],
      ["CARRIER_FINAL_STATUS_CHECK_SECONDS", read.finalStatusCheck]
    ] as const) {
      if (!(seconds >= CarrierTimings.bounds.min && seconds <= CarrierTimings.bounds.max)) {
        return invalid(
          name,
          `${name} must be a number of seconds from ${CarrierTimings.bounds.min} to ${CarrierTimings.bounds.max}`
        )
      }
    }
    return Either.right({
      kind: "twilio",
      twilio: { accountSid: read.accountSid.value, authToken: read.authToken.value, baseUrl: read.baseUrl },
      defaultFrom: read.defaultFrom,
      publicBaseUrl: base.value,
      mediaStreamSecret: read.secret.value,
      carrierTimings: {
        lostDialCheck: Duration.millis(Math.round(read.lostDialCheck * 1000)),
        finalStatusCheck: Duration.millis(Math.round(read.finalStatusCheck * 1000))
      }
    })
  })
)

/** `STT_PROVIDER` (default `embedded`); `deepgram` reads its adapter's variables (`DEEPGRAM_*`) only then. */
export const speechToTextConfig: Effect.Effect<SpeechToTextSettings, ConfigError.ConfigError> =
  Effect.flatMap(
    Config.literal("embedded", "deepgram")("STT_PROVIDER").pipe(Config.withDefault("embedded" as const)),
    (kind): Effect.Effect<SpeechToTextSettings, ConfigError.ConfigError> =>
      kind === "deepgram"
        ? Effect.map(DeepgramSpeechToText.config, (options) => ({ kind, options }))
        : Effect.succeed({ kind })
  )

/** `TTS_PROVIDER` (default `embedded`); `openai` and `elevenlabs` read their adapters' variables only then. */
export const textToSpeechConfig: Effect.Effect<TextToSpeechSettings, ConfigError.ConfigError> =
  Effect.flatMap(
    Config.literal(
      "embedded",
      "openai",
      "elevenlabs"
    )("TTS_PROVIDER").pipe(Config.withDefault("embedded" as const)),
    (kind): Effect.Effect<TextToSpeechSettings, ConfigError.ConfigError> =>
      kind === "openai"
        ? Effect.map(OpenAiSpeech.config, (options) => ({ kind, options }))
        : kind === "elevenlabs"
          ? Effect.map(ElevenLabsSpeech.config, (options) => ({ kind, options }))
          : Effect.succeed({ kind })
  )

/** `VOICE_SILENCE_SECONDS`. */
const silenceSecondsConfig = Config.integer("VOICE_SILENCE_SECONDS").pipe(
  Config.withDefault(VoiceLoopSettings.defaultSilenceSeconds),
  Config.validate({
    message: `VOICE_SILENCE_SECONDS must be a whole number from ${VoiceLoopSettings.minSilenceSeconds} to ${VoiceLoopSettings.maxSilenceSeconds}`,
    validation: VoiceLoopSettings.isValidSilenceSeconds
  })
)

/** The voice settings from the environment; a provider's own variables are read only when it is chosen. */
export const load: Effect.Effect<VoiceSettings, ConfigError.ConfigError> = Effect.all({
  telephony: telephonyConfig,
  speechToText: speechToTextConfig,
  textToSpeech: textToSpeechConfig,
  silenceSeconds: silenceSecondsConfig
})
