/** Fakes of the voice providers (Twilio, Deepgram, text-to-speech) speaking their wire protocols on loopback. */
