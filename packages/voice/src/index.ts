/**
 * @voice-agent-platform/voice: adapters of core's voice ports (issue 27, "Calls that speak"): Twilio
 * Programmable Voice (the REST API, signed callbacks, Media Streams), Deepgram speech-to-text, and
 * OpenAI-compatible and ElevenLabs text-to-speech. Tests run them against the fakes of
 * `@voice-agent-platform/voice/testing`, which speak the providers' real wire protocols on loopback.
 */
export * as BrowserMediaSession from "./browser/BrowserMediaSession.js"
export * as BrowserSocketMessages from "./browser/BrowserSocketMessages.js"
export * as DeepgramListenRequest from "./deepgram/ListenRequest.js"
export * as DeepgramMessages from "./deepgram/DeepgramMessages.js"
export * as DeepgramSpeechToText from "./deepgram/DeepgramSpeechToText.js"
export * as FileRecordingSpool from "./recording/FileRecordingSpool.js"
export * as ElevenLabsSpeech from "./elevenlabs/ElevenLabsSpeech.js"
export * as MediaStreamMessages from "./twilio/MediaStreamMessages.js"
export * as MuLaw from "./twilio/MuLaw.js"
export * as OpenAiSpeech from "./openai-speech/OpenAiSpeech.js"
export * as SpeechAnswers from "./speech-http/SpeechAnswers.js"
export * as SpeechOptions from "./speech-http/SpeechOptions.js"
export * as TwilioAnswer from "./twilio/TwilioAnswer.js"
export * as TwilioCarrier from "./twilio/TwilioCarrier.js"
export * as TwilioHttp from "./twilio/TwilioHttp.js"
export * as TwilioMediaSession from "./twilio/TwilioMediaSession.js"
export * as TwilioRestClient from "./twilio/TwilioRestClient.js"
export * as TwilioSignature from "./twilio/TwilioSignature.js"
export * as TwilioStatusCallback from "./twilio/TwilioStatusCallback.js"
