import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Option, Redacted } from "effect"
import * as ServerConfig from "../../src/server/ServerConfig.js"

const twilio: Record<string, string> = {
  TELEPHONY: "twilio",
  TWILIO_ACCOUNT_SID: `AC${"0123456789abcdef".repeat(2)}`,
  TWILIO_AUTH_TOKEN: "twilio-auth-token-never-shown",
  PUBLIC_BASE_URL: "https://voice.example.com/",
  MEDIA_STREAM_SECRET: "a media stream secret of 32 bytes!"
}

describe("voice server configuration", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(
      Effect.either(ServerConfig.load),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    ).pipe(Effect.map(Either.map((config) => config.voice)))
  const refusal = (env: Record<string, string>) =>
    Effect.map(read(env), (result) => String(Either.getLeft(result).pipe(Option.getOrThrow)))

  it.effect("simulates calls with the embedded providers by default, needing no key", () =>
    Effect.gen(function* () {
      expect(Either.getOrThrow(yield* read({}))).toEqual({
        telephony: { kind: "simulated" },
        speechToText: { kind: "embedded" },
        textToSpeech: { kind: "embedded" },
        silenceSeconds: 10
      })
    })
  )

  it.effect("reads Twilio's settings: the public address without its trailing slash, the default API", () =>
    Effect.gen(function* () {
      const voice = Either.getOrThrow(yield* read({ ...twilio, TWILIO_DEFAULT_FROM: "+48221234567" }))
      expect(voice.telephony.kind).toBe("twilio")
      if (voice.telephony.kind !== "twilio") return
      expect(voice.telephony.publicBaseUrl).toBe("https://voice.example.com")
      expect(voice.telephony.twilio.baseUrl).toBe("https://api.twilio.com")
      expect(voice.telephony.defaultFrom).toEqual(Option.some("+48221234567"))
      expect(Redacted.value(voice.telephony.twilio.authToken)).toBe(twilio.TWILIO_AUTH_TOKEN)
      // the keys are redacted wherever the settings are printed
      expect(JSON.stringify(voice)).not.toContain(twilio.TWILIO_AUTH_TOKEN)
      expect(String(voice.telephony.mediaStreamSecret)).not.toContain("secret of")
      // when the engine asks Twilio instead of waiting for its callbacks: 5 s and 15 s unless set
      expect(voice.telephony.carrierTimings).toEqual({
        lostDialCheck: Duration.seconds(5),
        finalStatusCheck: Duration.seconds(15)
      })
      const quick = Either.getOrThrow(
        yield* read({
          ...twilio,
          CARRIER_LOST_DIAL_CHECK_SECONDS: "0.5",
          CARRIER_FINAL_STATUS_CHECK_SECONDS: "2"
        })
      )
      if (quick.telephony.kind !== "twilio") return
      expect(quick.telephony.carrierTimings).toEqual({
        lostDialCheck: Duration.millis(500),
        finalStatusCheck: Duration.seconds(2)
      })
    })
  )

  it.effect("stops start-up on a Twilio setting missing or malformed, naming it and never its value", () =>
    Effect.gen(function* () {
      for (const name of [
        "TWILIO_ACCOUNT_SID",
        "TWILIO_AUTH_TOKEN",
        "PUBLIC_BASE_URL",
        "MEDIA_STREAM_SECRET"
      ]) {
        const { [name]: _, ...without } = twilio
        expect(yield* refusal(without)).toContain(`${name} is required with TELEPHONY=twilio`)
      }
      expect(yield* refusal({ ...twilio, TWILIO_ACCOUNT_SID: "AC123" })).toContain(
        "TWILIO_ACCOUNT_SID must be"
      )
      expect(yield* refusal({ ...twilio, PUBLIC_BASE_URL: "ftp://voice.example.com" })).toContain(
        "PUBLIC_BASE_URL must be"
      )
      expect(yield* refusal({ ...twilio, PUBLIC_BASE_URL: "https://voice.example.com/?a=1" })).toContain(
        "PUBLIC_BASE_URL must be"
      )
      const short = yield* refusal({ ...twilio, MEDIA_STREAM_SECRET: "short secret" })
      expect(short).toContain("MEDIA_STREAM_SECRET must be at least 32 bytes")
      expect(short).not.toContain("short secret")
      expect(yield* refusal({ ...twilio, TWILIO_DEFAULT_FROM: "500 100 200" })).toContain(
        "TWILIO_DEFAULT_FROM must be an E.164 number"
      )
      expect(yield* refusal({ ...twilio, TWILIO_API_BASE_URL: "http://user:pw@127.0.0.1:1" })).toContain(
        "TWILIO_API_BASE_URL must be"
      )
      expect(yield* refusal({ TELEPHONY: "vonage" })).toContain("TELEPHONY")
      for (const name of ["CARRIER_LOST_DIAL_CHECK_SECONDS", "CARRIER_FINAL_STATUS_CHECK_SECONDS"]) {
        for (const value of ["0", "601", "soon"]) {
          expect(yield* refusal({ ...twilio, [name]: value })).toContain(name)
        }
      }
    })
  )

  it.effect("selects the speech providers with their adapters' settings, refusing what they refuse", () =>
    Effect.gen(function* () {
      const deepgram = Either.getOrThrow(
        yield* read({
          STT_PROVIDER: "deepgram",
          DEEPGRAM_API_KEY: "dg-key",
          DEEPGRAM_URL: "ws://127.0.0.1:9/v1/listen"
        })
      )
      expect(deepgram.speechToText).toMatchObject({
        kind: "deepgram",
        options: { url: "ws://127.0.0.1:9/v1/listen" }
      })
      expect(yield* refusal({ STT_PROVIDER: "deepgram" })).toContain("DEEPGRAM_API_KEY")
      const openai = Either.getOrThrow(yield* read({ TTS_PROVIDER: "openai", TTS_VOICE: "nova" }))
      expect(openai.textToSpeech).toMatchObject({ kind: "openai", options: { voice: "nova" } })
      expect(yield* refusal({ TTS_PROVIDER: "elevenlabs" })).toContain("ELEVENLABS_API_KEY")
      expect(yield* refusal({ TTS_PROVIDER: "festival" })).toContain("TTS_PROVIDER")
      expect(yield* refusal({ VOICE_SILENCE_SECONDS: "1" })).toContain("VOICE_SILENCE_SECONDS must be")
    })
  )
})
