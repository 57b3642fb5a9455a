import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ProviderErrors from "../src/ProviderErrors.js"
import { retryAfterMs } from "../src/RetryAfter.js"

const now = Date.parse("2026-01-15T10:00:00.000Z")
const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name.toLowerCase()] ?? null
})
const answer = (status: number, body: unknown, head: Record<string, string> = {}) =>
  ProviderErrors.fromAnswer(
    { status, headers: headers(head), body: typeof body === "string" ? body : JSON.stringify(body) },
    { model: "gpt-4o-mini", now }
  )
const openAi = (
  type: string,
  code: string | null,
  message = "Something went wrong.",
  param: string | null = null
) => ({
  error: { message, type, param, code }
})

describe("RetryAfter", () => {
  it("reads retry-after-ms first, then Retry-After in seconds or as an HTTP date", () => {
    expect(retryAfterMs(headers({ "retry-after-ms": "1500.2", "retry-after": "9" }), now)).toBe(1501)
    expect(retryAfterMs(headers({ "retry-after": "7" }), now)).toBe(7000)
    expect(retryAfterMs(headers({ "retry-after": "0.25" }), now)).toBe(250)
    expect(retryAfterMs(headers({ "retry-after": "Thu, 15 Jan 2026 10:02:00 GMT" }), now)).toBe(120_000)
    // a date already past is no wait at all
    expect(retryAfterMs(headers({ "retry-after": "Thu, 15 Jan 2026 09:00:00 GMT" }), now)).toBe(0)
  })

  it("gives null when nothing valid is said", () => {
    for (const value of ["", "soon", "-5", "1e3", "12abc"]) {
      expect(retryAfterMs(headers({ "retry-after": value }), now), value).toBeNull()
    }
    expect(retryAfterMs(headers({ "retry-after-ms": "-1" }), now)).toBeNull()
    expect(retryAfterMs(headers({}), now)).toBeNull()
  })

  it.prop(
    "reads any whole number of seconds as that many thousand milliseconds",
    [FastCheck.nat({ max: 10 ** 9 })],
    ([s]) => {
      expect(retryAfterMs(headers({ "retry-after": String(s) }), now)).toBe(s * 1000)
    }
  )
})

describe("ProviderErrors.fromAnswer", () => {
  it("429: rate limited with the provider's delay; an exhausted quota is not a rate limit", () => {
    const limited = answer(429, openAi("requests", "rate_limit_exceeded"), { "retry-after": "3" })
    expect(limited).toMatchObject({ _tag: "ModelRateLimited", retry_after_ms: 3000 })
    expect(limited.message).toBe(
      "model_rate_limited: the provider is rate limiting requests (429, requests, rate_limit_exceeded)"
    )
    expect(answer(429, "")).toMatchObject({ _tag: "ModelRateLimited", retry_after_ms: null })
    expect(answer(429, openAi("insufficient_quota", "insufficient_quota")).message).toBe(
      "model_unavailable: the provider's account has no quota left (429, insufficient_quota): check its plan and billing"
    )
  })

  it("400: too long when the code or the words say the context is exceeded, else refused", () => {
    expect(answer(400, openAi("invalid_request_error", "context_length_exceeded"))._tag).toBe(
      "ModelInputTooLong"
    )
    // vLLM and llama.cpp say it in words or in their own type
    expect(
      answer(400, {
        object: "error",
        message: "This model's maximum context length is 4096 tokens.",
        type: "BadRequestError",
        code: 400
      })._tag
    ).toBe("ModelInputTooLong")
    expect(
      answer(400, {
        error: {
          code: 400,
          message: "the request exceeds the available context size",
          type: "exceed_context_size_error"
        }
      })._tag
    ).toBe("ModelInputTooLong")
    expect(answer(413, "")._tag).toBe("ModelInputTooLong")
    const refused = answer(
      400,
      openAi("invalid_request_error", null, "Invalid schema for response_format 'x': bad", "response_format")
    )
    expect(refused.message).toBe(
      "model_refused: the provider refused the request (400, invalid_request_error, param response_format)"
    )
    expect(answer(422, { detail: "unprocessable" }).message).toBe(
      "model_refused: the provider refused the request (422)"
    )
  })

  it("401, 403, 404: unavailable, saying what to check, never the provider's words", () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
    const unauthorized = answer(
      401,
      openAi("invalid_request_error", "invalid_api_key", `Incorrect API key provided: ${key}.`)
    )
    expect(unauthorized.message).toBe(
      "model_unavailable: the provider did not accept the API key (401, invalid_request_error, invalid_api_key): check LLM_API_KEY"
    )
    expect(answer(403, openAi("permission_error", null)).message).toContain(
      'check that LLM_API_KEY may use the model "gpt-4o-mini"'
    )
    expect(
      answer(404, openAi("invalid_request_error", "model_not_found", "The model `gpt-9` does not exist"))
        .message
    ).toBe(
      'model_unavailable: the provider has no model "gpt-4o-mini" or no /chat/completions there (404, invalid_request_error, model_not_found): check LLM_MODEL and LLM_BASE_URL'
    )
  })

  it("5xx, redirects and other statuses: unavailable; identifiers that are not identifiers are dropped", () => {
    expect(answer(503, openAi("server_error", null)).message).toBe(
      "model_unavailable: the provider failed (503, server_error)"
    )
    expect(answer(500, "<html>oops</html>").message).toBe("model_unavailable: the provider failed (500)")
    expect(answer(307, "")._tag).toBe("ModelUnavailable")
    expect(
      answer(409, { error: { type: "a type with spaces and a secret sk-123", code: "x".repeat(65) } }).message
    ).toBe("model_unavailable: the provider answered an unexpected status (409)")
  })
})
