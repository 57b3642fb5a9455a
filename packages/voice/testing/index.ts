/** Fakes of the voice providers (Twilio, Deepgram, text-to-speech) speaking their wire protocols on loopback. */
export * as FakeSpeechServer from "./speech/FakeSpeechServer.js"
export * as SpeechPattern from "./speech/SpeechPattern.js"
export * as SpeechFakeWaits from "./speech/SpeechFakeWaits.js"
