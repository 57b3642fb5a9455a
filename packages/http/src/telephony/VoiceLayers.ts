import {
  BrowserSessions,
  CallEvents,
  CarrierAddresses,
  CarrierCallbacks,
  CarrierTelephony,
  CarrierTimings,
  ConversationEngine,
  EmbeddedSpeechToText,
  EmbeddedTextToSpeech,
  IntegrationProvider,
  RuntimeTools,
  ToolExecutor,
  VoiceCalls,
  VoiceLoopSettings
} from "@voice-agent-platform/core"
import {
  DeepgramSpeechToText,
  ElevenLabsSpeech,
  FileRecordingSpool,
  OpenAiSpeech,
  TwilioCarrier
} from "@voice-agent-platform/voice"
import { Layer, Option, Redacted } from "effect"
import type { OutboundHttp } from "@voice-agent-platform/core"
import * as CarrierRoutes from "./CarrierRoutes.js"
import * as MediaSockets from "./MediaSockets.js"
import * as BrowserSockets from "../voice-sessions/BrowserSockets.js"
import type { TelephonySettings, VoiceSettings } from "../server/VoiceConfig.js"

/**
 * The layers of real calls, from the voice settings (`VoiceConfig`): the carrier (Twilio), the addresses
 * it reaches this server at, the telephony that dials through it, the speech providers, and the services
 * behind the carrier's webhooks and media sockets (`CarrierCallbacks`, `VoiceCalls`). With
 * `TELEPHONY=simulated` none of them is built.
 */

type Twilio = Extract<TelephonySettings, { readonly kind: "twilio" }>

/**
 * The Twilio carrier, its addresses and when the engine asks it instead of waiting for its callbacks
 * (options were checked when the configuration was read).
 */
export const carrier = (twilio: Twilio) =>
  Layer.mergeAll(
    Layer.orDie(TwilioCarrier.layer(twilio.twilio)),
    CarrierAddresses.layer(
      twilio.publicBaseUrl,
      Redacted.value(twilio.mediaStreamSecret),
      twilio.twilio.accountSid
    ),
    Layer.succeed(CarrierTimings.CarrierTimings, twilio.carrierTimings)
  )

/** The telephony that dials through the carrier, `TWILIO_DEFAULT_FROM` its fallback caller id. */
export const telephony = (twilio: Twilio) =>
  CarrierTelephony.layer(Option.getOrNull(twilio.defaultFrom)).pipe(Layer.provide(carrier(twilio)))

/** `STT_PROVIDER`'s adapter. */
export const speechToText = (settings: VoiceSettings) =>
  settings.speechToText.kind === "deepgram"
    ? Layer.orDie(DeepgramSpeechToText.layer(settings.speechToText.options))
    : EmbeddedSpeechToText.layer

/** `TTS_PROVIDER`'s adapter. */
export const textToSpeech = (settings: VoiceSettings) => {
  switch (settings.textToSpeech.kind) {
    case "openai":
      return Layer.orDie(OpenAiSpeech.layer(settings.textToSpeech.options))
    case "elevenlabs":
      return Layer.orDie(ElevenLabsSpeech.layer(settings.textToSpeech.options))
    case "embedded":
      return EmbeddedTextToSpeech.layer
  }
}

/**
 * The carrier's webhooks and the calls' conversations over the engine's services: each call's agent
 * answers through the conversation engine with its tools (no integration provider, as in chats), hears
 * and speaks through the configured providers, and waits `VOICE_SILENCE_SECONDS` before a reprompt.
 * Needs the engine's stores, a `LanguageModel` and the guarded `OutboundHttp`.
 */
export const callServices = (settings: VoiceSettings, twilio: Twilio) =>
  Layer.mergeAll(CarrierCallbacks.layer, VoiceCalls.layer).pipe(
    Layer.provide(ConversationEngine.layer),
    Layer.provideMerge(
      RuntimeTools.layer.pipe(Layer.provide(ToolExecutor.layer), Layer.provide(IntegrationProvider.layerNone))
    ),
    Layer.provide(CallEvents.layer),
    Layer.provide(Layer.mergeAll(speechToText(settings), textToSpeech(settings))),
    Layer.provide(VoiceLoopSettings.layer({ silenceSeconds: settings.silenceSeconds })),
    // live calls' recordings spooled to temporary files, not kept whole in memory
    Layer.provide(FileRecordingSpool.layer()),
    Layer.provideMerge(carrier(twilio))
  )

/**
 * The browser voice sessions' conversations (`mode: webrtc`), whatever the telephony: the same engine,
 * tools and speech providers as a real call's, with no carrier.
 */
export const browserServices = (settings: VoiceSettings) =>
  BrowserSessions.layer.pipe(
    Layer.provide(ConversationEngine.layer),
    Layer.provideMerge(
      RuntimeTools.layer.pipe(Layer.provide(ToolExecutor.layer), Layer.provide(IntegrationProvider.layerNone))
    ),
    Layer.provide(CallEvents.layer),
    Layer.provide(Layer.mergeAll(speechToText(settings), textToSpeech(settings))),
    Layer.provide(VoiceLoopSettings.layer({ silenceSeconds: settings.silenceSeconds })),
    Layer.provide(FileRecordingSpool.layer())
  )

const orEmpty = <E, R>(layer: Layer.Layer<never, E, R> | null): Layer.Layer<never, E, R> =>
  layer ?? Layer.empty

/**
 * What the server adds for real calls: the carrier's routes (to serve with the API) and its media sockets
 * (on the Node server), sharing one `callServices` (tools' requests through `outbound`); both empty with
 * simulated calls. And, always, the browser voice sessions' sockets (`BrowserSockets`, on the Node server;
 * they answer the upgrades the carrier's do not).
 */
export const serverLayers = (settings: VoiceSettings, outbound: Layer.Layer<OutboundHttp.OutboundHttp>) => {
  const twilio = settings.telephony.kind === "twilio" ? settings.telephony : null
  const services = twilio === null ? null : callServices(settings, twilio).pipe(Layer.provide(outbound))
  return {
    carrierRoutes: orEmpty(services === null ? null : CarrierRoutes.layer.pipe(Layer.provide(services))),
    mediaSockets: orEmpty(services === null ? null : MediaSockets.layer.pipe(Layer.provide(services))),
    browserSockets: BrowserSockets.layer.pipe(
      Layer.provide(browserServices(settings)),
      Layer.provide(outbound)
    )
  }
}
