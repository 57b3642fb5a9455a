/** Fakes of the voice providers (Twilio, Deepgram, text-to-speech) speaking their wire protocols on loopback. */
export * as AudioFixtures from "./twilio/AudioFixtures.js"
export * as DeepgramScript from "./deepgram/DeepgramScript.js"
export * as FakeDeepgram from "./deepgram/FakeDeepgram.js"
export * as FakeMediaStream from "./twilio/FakeMediaStream.js"
export * as FakeSpeechServer from "./speech/FakeSpeechServer.js"
export * as FakeTwilio from "./twilio/FakeTwilio.js"
export * as SpeechFakeWaits from "./speech/SpeechFakeWaits.js"
export * as SpeechPattern from "./speech/SpeechPattern.js"
