import { describe, expect, it } from "@effect/vitest"
import { OpenAiCompatible } from "@voice-agent-platform/language-models"
import { ConfigProvider, Effect, Either, Layer, Redacted } from "effect"

const read = (env: Record<string, string>) =>
  Effect.either(
    Effect.withConfigProvider(OpenAiCompatible.config, ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

/** Why the configuration was refused, as the server prints it. */
const refusal = (env: Record<string, string>) =>
  Effect.map(read(env), (result) => (Either.isLeft(result) ? String(result.left) : "accepted"))

describe("OpenAiCompatible.config", () => {
  it.effect("defaults: the OpenAI API, no key, gpt-4o-mini, 30 s, 1024 tokens", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(
        Either.right({
          baseUrl: "https://api.openai.com/v1",
          apiKey: undefined,
          model: "gpt-4o-mini",
          timeoutMs: 30_000,
          maxTokens: 1024
        })
      )
    })
  )

  it.effect("reads every variable; the key stays redacted and an empty key is no key", () =>
    Effect.gen(function* () {
      const options = Either.getOrThrow(
        yield* read({
          LLM_BASE_URL: "http://127.0.0.1:8080/v1",
          LLM_API_KEY: "sk-local",
          LLM_MODEL: "qwen2.5-7b-instruct",
          LLM_TIMEOUT_MS: "120000",
          LLM_MAX_TOKENS: "256"
        })
      )
      expect(options).toMatchObject({
        baseUrl: "http://127.0.0.1:8080/v1",
        model: "qwen2.5-7b-instruct",
        timeoutMs: 120_000,
        maxTokens: 256
      })
      expect(Redacted.isRedacted(options.apiKey)).toBe(true)
      expect(Redacted.value(options.apiKey!)).toBe("sk-local")
      expect(String(options.apiKey)).not.toContain("sk-local")
      expect(Either.getOrThrow(yield* read({ LLM_API_KEY: "" })).apiKey).toBeUndefined()
    })
  )

  it.effect("refuses bad values with a message that names the variable, never the key", () =>
    Effect.gen(function* () {
      const urlRefusal = "LLM_BASE_URL must be an http(s) URL without credentials"
      expect(yield* refusal({ LLM_BASE_URL: "127.0.0.1:8080" })).toContain(urlRefusal)
      expect(yield* refusal({ LLM_BASE_URL: "ftp://models.internal/v1" })).toContain(urlRefusal)
      const withCredentials = yield* refusal({ LLM_BASE_URL: "https://user:s3cret@proxy.internal/v1" })
      expect(withCredentials).toContain(urlRefusal)
      expect(withCredentials).not.toContain("s3cret")
      expect(yield* refusal({ LLM_TIMEOUT_MS: "0" })).toContain(
        "LLM_TIMEOUT_MS must be a whole number from 1 to 600000"
      )
      expect(yield* refusal({ LLM_TIMEOUT_MS: "30s" })).toContain("LLM_TIMEOUT_MS")
      expect(yield* refusal({ LLM_MAX_TOKENS: "-1" })).toContain(
        "LLM_MAX_TOKENS must be a whole number from 1 to 1000000"
      )
      // set but empty is unset, as for the other variables
      expect(Either.getOrThrow(yield* read({ LLM_MODEL: "", LLM_BASE_URL: "" }))).toMatchObject({
        model: "gpt-4o-mini",
        baseUrl: "https://api.openai.com/v1"
      })
    })
  )

  it.effect(
    "layerConfig builds the adapter from the environment; layer refuses options that cannot work",
    () =>
      Effect.gen(function* () {
        const built = yield* Effect.either(
          Layer.build(OpenAiCompatible.layerConfig).pipe(
            Effect.scoped,
            Effect.withConfigProvider(
              ConfigProvider.fromMap(new Map([["LLM_BASE_URL", "http://127.0.0.1:11434/v1"]]))
            )
          )
        )
        expect(Either.isRight(built)).toBe(true)
        const invalid = yield* Effect.flip(
          Layer.build(OpenAiCompatible.layer({ baseUrl: "http://127.0.0.1:8080/v1", timeoutMs: 0 })).pipe(
            Effect.scoped
          )
        )
        expect(invalid.message).toBe(
          "Invalid language model options: timeoutMs must be a whole number from 1 to 600000"
        )
      })
  )
})
