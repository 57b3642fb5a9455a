/** Fakes of the voice providers (Twilio, Deepgram, text-to-speech) speaking their wire protocols on loopback. */
export * as DeepgramScript from "./deepgram/DeepgramScript.js"
export * as FakeDeepgram from "./deepgram/FakeDeepgram.js"
