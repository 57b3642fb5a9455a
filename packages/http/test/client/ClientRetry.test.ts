import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ClientRetry from "../../src/embedding/ClientRetry.js"

describe("ClientRetry", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-23T12:00:00Z")
    expect(ClientRetry.retryAfterMillis("3", now)).toBe(3000)
    expect(ClientRetry.retryAfterMillis(" 0 ", now)).toBe(0)
    expect(ClientRetry.retryAfterMillis("Mon, 23 Nov 2026 12:00:05 GMT", now)).toBe(5000)
    expect(ClientRetry.retryAfterMillis("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0)
    expect(ClientRetry.retryAfterMillis(undefined, now)).toBeUndefined()
    expect(ClientRetry.retryAfterMillis("-1", now)).toBeUndefined()
    expect(ClientRetry.retryAfterMillis("1.5", now)).toBeUndefined()
    expect(ClientRetry.retryAfterMillis("soon", now)).toBeUndefined()
  })

  it.prop(
    "reads any delay-seconds back as its milliseconds",
    [FastCheck.integer({ min: 0, max: 999_999_999 })],
    ([seconds]) => ClientRetry.retryAfterMillis(String(seconds), 0) === seconds * 1000
  )

  it("backs off exponentially up to the cap, with jitter in the upper half", () => {
    expect(ClientRetry.backoffMillis(1, 500, 30_000, 0)).toBe(250)
    expect(ClientRetry.backoffMillis(1, 500, 30_000, 0.999)).toBeCloseTo(499.75)
    expect(ClientRetry.backoffMillis(3, 500, 30_000, 0)).toBe(1000)
    expect(ClientRetry.backoffMillis(20, 500, 30_000, 0)).toBe(15_000)
    expect(ClientRetry.backoffMillis(2000, 500, 30_000, 0.5)).toBe(22_500)
  })

  it.prop(
    "never waits less than half, nor more than, the capped exponential delay",
    [
      FastCheck.integer({ min: 1, max: 10_000 }),
      FastCheck.integer({ min: 1, max: 10_000 }),
      FastCheck.integer({ min: 1, max: 600_000 }),
      FastCheck.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
    ],
    ([attempt, base, max, random]) => {
      const capped = Math.min(max, base * 2 ** (attempt - 1))
      const wait = ClientRetry.backoffMillis(attempt, base, max, random)
      return wait >= capped / 2 && wait <= capped && Number.isFinite(wait)
    }
  )

  it("gives call POSTs, and only those, an Idempotency-Key unless they carry one", () => {
    const key = (request: HttpClientRequest.HttpClientRequest) =>
      ClientRetry.withIdempotencyKey(request).headers["idempotency-key"]
    for (const path of ["agents/agent_x/calls", "triggers/trg_1/calls", "workflow/12/calls"]) {
      expect(key(HttpClientRequest.post(`http://h/api/v1/${path}`))).toMatch(/^[0-9a-f-]{36}$/)
    }
    const first = key(HttpClientRequest.post("http://h/api/v1/agents/a/calls"))
    expect(key(HttpClientRequest.post("http://h/api/v1/agents/a/calls"))).not.toBe(first)
    expect(
      key(
        HttpClientRequest.post("http://h/api/v1/agents/a/calls", {
          headers: { "Idempotency-Key": "mine-0001" }
        })
      )
    ).toBe("mine-0001")
    expect(key(HttpClientRequest.get("http://h/api/v1/agents/a/calls"))).toBeUndefined()
    expect(key(HttpClientRequest.post("http://h/api/v1/agents/a/conversations"))).toBeUndefined()
    expect(key(HttpClientRequest.post("http://h/api/v1/webhooks"))).toBeUndefined()
  })
})
