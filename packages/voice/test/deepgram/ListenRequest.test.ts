import { describe, expect, it } from "@effect/vitest"
import { phoneAudio } from "@voice-agent-platform/core/voice/SpeechToText.js"
import { ConfigProvider, Effect, Redacted } from "effect"
import * as DeepgramSpeechToText from "../../src/deepgram/DeepgramSpeechToText.js"
import { closeReason, isListenUrl, listenUrl, refusal } from "../../src/deepgram/ListenRequest.js"

const phone = { language: "en", ...phoneAudio }

describe("Deepgram's listen request", () => {
  it("builds the query from the session and the operator's choices", () => {
    const url = new URL(
      listenUrl("wss://stt.example.com/v1/listen", phone, { endpointingMs: 300, utteranceEndMs: 1000 })
    )
    expect(url.origin + url.pathname).toBe("wss://stt.example.com/v1/listen")
    expect(Object.fromEntries(url.searchParams)).toEqual({
      encoding: "mulaw",
      sample_rate: "8000",
      channels: "1",
      interim_results: "true",
      endpointing: "300",
      utterance_end_ms: "1000",
      language: "en"
    })
    const odd = new URL(
      listenUrl(
        "ws://127.0.0.1:9/v1/listen",
        { ...phone, language: "en&model=x" },
        {
          endpointingMs: 10,
          utteranceEndMs: 1000,
          model: "nova-3"
        }
      )
    )
    expect(odd.searchParams.get("language")).toBe("en&model=x")
    expect(odd.searchParams.getAll("model")).toEqual(["nova-3"])
  })

  it("takes only ws(s) URLs without credentials, query or fragment", () => {
    expect(isListenUrl("wss://stt.example.com/v1/listen")).toBe(true)
    expect(isListenUrl("ws://127.0.0.1:8081/v1/listen")).toBe(true)
    for (const bad of [
      "https://stt.example/v1/listen",
      "wss://user:pass@stt.example/v1/listen",
      "wss://stt.example/v1/listen?token=x",
      "wss://stt.example/v1/listen#x",
      "not a url"
    ]) {
      expect(isListenUrl(bad), bad).toBe(false)
    }
  })

  it("reads a refused upgrade's status as the port's errors", () => {
    expect(refusal(401, phone)).toMatchObject({ _tag: "SpeechToTextRefused", status: 401 })
    expect(refusal(403, phone)).toMatchObject({ _tag: "SpeechToTextRefused", status: 403 })
    expect(refusal(400, phone)).toMatchObject({ _tag: "SpeechToTextRefused", status: 400 })
    expect(refusal(400, phone).message).toContain('"en"')
    for (const status of [302, 402, 429, 500, 503, 418]) {
      expect(refusal(status, phone)._tag, String(status)).toBe("SpeechToTextUnavailable")
      expect(refusal(status, phone).message).toContain(String(status))
    }
  })

  it("repeats a close reason only when it is a code", () => {
    expect(closeReason("NET-0001")).toBe("NET-0001")
    expect(closeReason("")).toBeNull()
    expect(closeReason("Invalid credentials: Token dg-key")).toBeNull()
  })
})

describe("Deepgram's options", () => {
  it.effect("refuses a URL, a bound or a key that cannot work", () =>
    Effect.gen(function* () {
      const key = Redacted.make("dg-key")
      const problems = yield* Effect.all(
        [
          { apiKey: key, url: "https://stt.example/v1/listen" },
          { apiKey: Redacted.make(" ") },
          { apiKey: key, keepAliveMs: 10_000 },
          { apiKey: key, utteranceEndMs: 999 },
          { apiKey: key, connectTimeoutMs: 0 }
        ].map((options) => Effect.flip(DeepgramSpeechToText.make(options)))
      )
      expect(problems.map((problem) => problem._tag)).toEqual(Array(5).fill("InvalidOptions"))
      expect(problems.map((problem) => problem.message).join(" ")).not.toContain("dg-key")
      expect((yield* DeepgramSpeechToText.make({ apiKey: key })).provider).toBe("deepgram")
    })
  )

  it.effect("reads DEEPGRAM_API_KEY (required) and DEEPGRAM_URL (default Deepgram's)", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        Effect.withConfigProvider(
          DeepgramSpeechToText.config,
          ConfigProvider.fromMap(new Map(Object.entries(env)))
        )
      const options = yield* read({ DEEPGRAM_API_KEY: "dg-key" })
      expect(options.url).toBe("wss://api.deepgram.com/v1/listen")
      expect(Redacted.value(options.apiKey)).toBe("dg-key")
      expect((yield* read({ DEEPGRAM_API_KEY: "k", DEEPGRAM_URL: "ws://127.0.0.1:9/v1/listen" })).url).toBe(
        "ws://127.0.0.1:9/v1/listen"
      )
      expect(String(yield* Effect.flip(read({})))).toContain("DEEPGRAM_API_KEY")
      expect(String(yield* Effect.flip(read({ DEEPGRAM_API_KEY: "" })))).toContain("DEEPGRAM_API_KEY")
      const badUrl = yield* Effect.flip(read({ DEEPGRAM_API_KEY: "k", DEEPGRAM_URL: "http://x/v1/listen" }))
      expect(String(badUrl)).toContain("DEEPGRAM_URL")
    })
  )
})
