import { SpeechToText } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { Config, type ConfigError, Data, Effect, Layer, Redacted } from "effect"
import * as DeepgramSession from "./DeepgramSession.js"
import { isListenUrl, listenUrl } from "./ListenRequest.js"

/**
 * The `SpeechToText` port over Deepgram's live streaming API (`STT_PROVIDER=deepgram`): a WebSocket to
 * `{DEEPGRAM_URL}?encoding=…&sample_rate=…&channels=1&interim_results=true&endpointing=…&utterance_end_ms=…&language=…`
 * with `Authorization: Token <key>`. The endpoint is the operator's configuration (loopback is fine), but
 * every session keeps a connect deadline and a finish deadline, and the key goes in the header only: it
 * is in no error, log line or span. See docs/voice.md, "Speech to text".
 */

export const provider = "deepgram"

export interface Options {
  /** Default `wss://api.deepgram.com/v1/listen`: a ws(s) URL without credentials or query. */
  readonly url?: string
  /** Sent as `Authorization: Token …`. */
  readonly apiKey: Redacted.Redacted<string>
  /** Deepgram's model (`nova-2`, `nova-3`); none: Deepgram's default for the language. */
  readonly model?: string | undefined
  /** Silence, in ms, after which Deepgram marks a final `speech_final`. Default 300. */
  readonly endpointingMs?: number
  /** Time without words, in ms, before Deepgram sends `UtteranceEnd`. Default 1000 (Deepgram's least). */
  readonly utteranceEndMs?: number
  /** From the connection's start until it is open. Default 5000. */
  readonly connectTimeoutMs?: number
  /** From `finish` until Deepgram has sent its last results and closed. Default 5000. */
  readonly finishTimeoutMs?: number
  /** `KeepAlive` after this long without audio (Deepgram closes a stream idle for 10 s). Default 4000. */
  readonly keepAliveMs?: number
  /** Audio bytes waiting to be written before a session fails. Default 1 MiB (a minute of μ-law). */
  readonly maxBufferedBytes?: number
  /** The largest message taken from Deepgram. Default 1 MiB. */
  readonly maxMessageBytes?: number
}

export const defaults = {
  url: "wss://api.deepgram.com/v1/listen",
  endpointingMs: 300,
  utteranceEndMs: 1000,
  connectTimeoutMs: 5000,
  finishTimeoutMs: 5000,
  keepAliveMs: 4000,
  maxBufferedBytes: 1024 * 1024,
  maxMessageBytes: 1024 * 1024
} as const

/** Options that cannot work: a URL that is not a ws(s) URL without credentials, a bound out of range, no key. */
export class InvalidOptions extends Data.TaggedError("InvalidOptions")<{ readonly reason: string }> {
  override get message() {
    return `Invalid Deepgram options: ${this.reason}`
  }
}

const isWholeIn = (value: number, min: number, max: number) =>
  Number.isInteger(value) && value >= min && value <= max

/** The service; sessions are traced (`SpeechToText.open`, with the provider, language and encoding). */
export const make = (options: Options): Effect.Effect<SpeechToText["Type"], InvalidOptions> =>
  Effect.gen(function* () {
    const url = options.url ?? defaults.url
    if (!isListenUrl(url)) {
      return yield* new InvalidOptions({ reason: "url must be a ws(s) URL without credentials or query" })
    }
    if (Redacted.value(options.apiKey).trim() === "") {
      return yield* new InvalidOptions({ reason: "the API key is empty" })
    }
    const choose = (name: keyof typeof defaults & keyof Options, min: number, max: number) => {
      const value = (options[name] as number | undefined) ?? (defaults[name] as number)
      return isWholeIn(value, min, max)
        ? Effect.succeed(value)
        : Effect.fail(new InvalidOptions({ reason: `${name} must be a whole number from ${min} to ${max}` }))
    }
    const endpointingMs = yield* choose("endpointingMs", 10, 10_000)
    const utteranceEndMs = yield* choose("utteranceEndMs", 1000, 10_000)
    const bounds: DeepgramSession.Bounds = {
      connectTimeoutMs: yield* choose("connectTimeoutMs", 1, 120_000),
      finishTimeoutMs: yield* choose("finishTimeoutMs", 1, 120_000),
      // Deepgram closes after 10 s without data: a KeepAlive must come before
      keepAliveMs: yield* choose("keepAliveMs", 1, 9000),
      maxBufferedBytes: yield* choose("maxBufferedBytes", 1024, 1024 ** 3),
      maxMessageBytes: yield* choose("maxMessageBytes", 1024, 64 * 1024 ** 2)
    }
    const authorization = `Token ${Redacted.value(options.apiKey)}`
    return {
      provider,
      open: (session) =>
        DeepgramSession.open(
          listenUrl(url, session, { endpointingMs, utteranceEndMs, model: options.model }),
          authorization,
          session,
          bounds
        ).pipe(
          Effect.withSpan("SpeechToText.open", {
            attributes: {
              "stt.provider": provider,
              "stt.language": session.language,
              "stt.encoding": session.encoding,
              "stt.sample_rate": session.sample_rate
            }
          })
        )
    }
  })

/** The adapter as the `SpeechToText` layer. */
export const layer = (options: Options): Layer.Layer<SpeechToText, InvalidOptions> =>
  Layer.effect(SpeechToText, make(options))

/** The options from the environment: `DEEPGRAM_API_KEY` (required), `DEEPGRAM_URL` (default Deepgram's). */
export const config: Config.Config<Options> = Config.all({
  url: Config.nonEmptyString("DEEPGRAM_URL").pipe(
    Config.withDefault(defaults.url),
    Config.validate({
      message:
        "DEEPGRAM_URL must be a ws(s) URL without credentials or query, e.g. ws://127.0.0.1:8081/v1/listen",
      validation: isListenUrl
    })
  ),
  apiKey: Config.redacted("DEEPGRAM_API_KEY").pipe(
    Config.validate({
      message: "DEEPGRAM_API_KEY must not be empty",
      validation: (key) => Redacted.value(key).trim() !== ""
    })
  )
})

/** The adapter configured from the environment (see `config`). */
export const layerConfig: Layer.Layer<SpeechToText, ConfigError.ConfigError | InvalidOptions> =
  Layer.unwrapEffect(Effect.map(config, layer))
