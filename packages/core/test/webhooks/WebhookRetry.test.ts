import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as WebhookRetry from "../../src/webhooks/WebhookRetry.js"

const now = new Date("2026-02-10T11:00:00.000Z")
const answered = (status: number) => ({ _tag: "Answered", status }) as const
const noAnswer = { _tag: "NoAnswer", category: "timeout" } as const
const attemptArb = FastCheck.integer({ min: 1, max: 20 })

describe("WebhookRetry", () => {
  it("waits 30 s, doubling per attempt, never more than 10 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(WebhookRetry.delaySeconds)).toEqual([30, 60, 120, 240, 480, 600, 600])
  })

  it("retries 408, 425, 429 and 5xx only", () => {
    const retryable = [408, 425, 429, 500, 502, 503, 504, 599]
    const final = [200, 204, 301, 400, 401, 403, 404, 409, 410, 422, 499, 600]
    expect(retryable.map(WebhookRetry.isRetryableStatus)).toEqual(retryable.map(() => true))
    expect(final.map(WebhookRetry.isRetryableStatus)).toEqual(final.map(() => false))
  })

  it("schedules retries after a 503 or no answer until the fifth attempt, then fails", () => {
    expect(WebhookRetry.next(1, answered(503), now)).toEqual({
      status: "pending",
      next_attempt_at: new Date("2026-02-10T11:00:30.000Z")
    })
    expect(WebhookRetry.next(4, noAnswer, now)).toEqual({
      status: "pending",
      next_attempt_at: new Date("2026-02-10T11:04:00.000Z")
    })
    expect(WebhookRetry.next(5, answered(503), now)).toEqual({ status: "failed" })
    expect(WebhookRetry.next(5, noAnswer, now)).toEqual({ status: "failed" })
  })

  it("delivers on any 2xx and fails at once on an answer that is not worth repeating", () => {
    expect(WebhookRetry.next(1, answered(200), now)).toEqual({ status: "delivered" })
    expect(WebhookRetry.next(5, answered(299), now)).toEqual({ status: "delivered" })
    expect(WebhookRetry.next(1, answered(400), now)).toEqual({ status: "failed" })
    expect(WebhookRetry.next(1, answered(302), now)).toEqual({ status: "failed" })
  })

  it("fails at once when the destination is not allowed, and logs categories, never raw errors", () => {
    const refused = { _tag: "NoAnswer", category: "destination_not_allowed" } as const
    const unreachable = { _tag: "NoAnswer", category: "connection_failed" } as const
    expect(WebhookRetry.next(1, refused, now)).toEqual({ status: "failed" })
    expect(WebhookRetry.next(1, unreachable, now).status).toBe("pending")
    expect(WebhookRetry.errorCategory(refused)).toBe("destination_not_allowed")
    expect(WebhookRetry.errorCategory(noAnswer)).toBe("timeout")
    expect(WebhookRetry.errorCategory(answered(503))).toBe("http_status")
    expect(WebhookRetry.errorCategory(answered(302))).toBe("http_status")
    expect(WebhookRetry.errorCategory(answered(204))).toBeNull()
  })

  it("shows stored errors as categories, older raw texts included", () => {
    expect(WebhookRetry.shownError(null, null)).toBeNull()
    expect(WebhookRetry.shownError("timeout", null)).toBe("timeout")
    expect(WebhookRetry.shownError("destination_not_allowed", null)).toBe("destination_not_allowed")
    expect(WebhookRetry.shownError("receiver answered 503", 503)).toBe("http_status")
    expect(WebhookRetry.shownError("TypeError: fetch failed (connect ECONNREFUSED 10.0.0.5:80)", null)).toBe(
      "connection_failed"
    )
  })

  it.prop("delays grow with the attempt, capped at 600 s", [attemptArb], ([attempt]) => {
    const delay = WebhookRetry.delaySeconds(attempt)
    expect(delay).toBeGreaterThanOrEqual(30)
    expect(delay).toBeLessThanOrEqual(WebhookRetry.maxDelaySeconds)
    expect(WebhookRetry.delaySeconds(attempt + 1)).toBeGreaterThanOrEqual(delay)
    expect(delay).toBe(Math.min(30 * 2 ** (attempt - 1), 600))
  })

  it.prop(
    "an answered attempt delivers, waits or fails per its status",
    [attemptArb, FastCheck.integer({ min: 100, max: 599 })],
    ([attempt, status]) => {
      const outcome = WebhookRetry.next(attempt, answered(status), now)
      if (status >= 200 && status <= 299) expect(outcome.status).toBe("delivered")
      else if (attempt < WebhookRetry.maxAttempts && WebhookRetry.isRetryableStatus(status)) {
        expect(outcome).toEqual({
          status: "pending",
          next_attempt_at: new Date(now.getTime() + WebhookRetry.delaySeconds(attempt) * 1000)
        })
      } else expect(outcome.status).toBe("failed")
    }
  )

  it.prop("no answer is retried while attempts remain", [attemptArb], ([attempt]) => {
    // Without an answer a delivery is retried exactly while attempts remain.
    const outcome = WebhookRetry.next(attempt, noAnswer, now)
    expect(outcome.status).toBe(attempt < WebhookRetry.maxAttempts ? "pending" : "failed")
  })
})
