/**
 * @voice-agent-platform/voice: adapters of core's voice ports (issue 27, "Calls that speak"): Twilio
 * Programmable Voice (the REST API, signed callbacks, Media Streams), Deepgram speech-to-text, and
 * OpenAI-compatible and ElevenLabs text-to-speech. Tests run them against the fakes of
 * `@voice-agent-platform/voice/testing`, which speak the providers' real wire protocols on loopback.
 */
export * as OpenAiSpeech from "./openai-speech/OpenAiSpeech.js"
export * as ElevenLabsSpeech from "./elevenlabs/ElevenLabsSpeech.js"
export * as SpeechAnswers from "./speech-http/SpeechAnswers.js"
export * as SpeechOptions from "./speech-http/SpeechOptions.js"
