import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as AnalysisRetry from "../../src/analysis/AnalysisRetry.js"
import type { LanguageModelError } from "../../src/language-model/LanguageModelErrors.js"
import {
  ModelDeadline,
  ModelInputTooLong,
  ModelRateLimited,
  ModelRefused,
  ModelUnavailable
} from "../../src/language-model/LanguageModelErrors.js"

const now = new Date("2026-03-01T12:00:00.000Z")
const unavailable = new ModelUnavailable({ reason: "the provider answered 503" })
const limited = (retry_after_ms: number | null) =>
  new ModelRateLimited({ reason: "slow down", retry_after_ms })
const waitAfter = (error: LanguageModelError, failedBefore: number, maxAttempts = 10) => {
  const verdict = AnalysisRetry.decide(error, failedBefore, maxAttempts, now)
  return verdict._tag === "RetryAt" ? (verdict.at.getTime() - now.getTime()) / 1000 : "give up"
}

const anyError: FastCheck.Arbitrary<LanguageModelError> = FastCheck.oneof(
  FastCheck.constant(unavailable),
  FastCheck.option(FastCheck.nat(5_000_000)).map(limited),
  FastCheck.constant(new ModelDeadline({ timeout_ms: 30_000 })),
  FastCheck.constant(new ModelRefused({ reason: "content policy" })),
  FastCheck.constant(new ModelInputTooLong({ reason: "too long" }))
)

describe("AnalysisRetry.decide", () => {
  it("waits 10 s, 1 min, 5 min, then 30 min after each further failure", () => {
    expect([0, 1, 2, 3, 4, 5, 8].map((before) => waitAfter(unavailable, before))).toEqual([
      10, 60, 300, 1_800, 1_800, 1_800, 1_800
    ])
    expect(waitAfter(new ModelDeadline({ timeout_ms: 30_000 }), 1)).toBe(60)
  })

  it("gives up once the job failed maxAttempts times", () => {
    expect(waitAfter(unavailable, 3, 5)).toBe(1_800)
    expect(waitAfter(unavailable, 4, 5)).toBe("give up")
    expect(waitAfter(unavailable, 0, 1)).toBe("give up")
  })

  it("waits as long as the provider asked when that is longer", () => {
    expect(waitAfter(limited(120_000), 0)).toBe(120)
    expect(waitAfter(limited(1_000), 0)).toBe(10)
    expect(waitAfter(limited(null), 2)).toBe(300)
    expect(waitAfter(limited(3_000_500), 3)).toBe(3_000.5)
    // however long a provider asks for, an hour at most
    expect(waitAfter(limited(7_200_500), 3)).toBe(3_600)
  })

  it("gives up at once on a refusal or an input too long: it would fail the same way again", () => {
    expect(waitAfter(new ModelRefused({ reason: "content policy" }), 0)).toBe("give up")
    expect(waitAfter(new ModelInputTooLong({ reason: "too long" }), 0)).toBe("give up")
  })

  it.prop(
    "retries exactly a transient failure before the last attempt, after the back-off or the provider's wait",
    [anyError, FastCheck.nat(20), FastCheck.integer({ min: 1, max: 20 })],
    ([error, failedBefore, maxAttempts]) => {
      const verdict = AnalysisRetry.decide(error, failedBefore, maxAttempts, now)
      const transient =
        error._tag === "ModelUnavailable" ||
        error._tag === "ModelRateLimited" ||
        error._tag === "ModelDeadline"
      expect(verdict._tag === "RetryAt").toBe(transient && failedBefore + 1 < maxAttempts)
      if (verdict._tag !== "RetryAt") return
      const wait = verdict.at.getTime() - now.getTime()
      const backoff =
        AnalysisRetry.backoffSeconds[Math.min(failedBefore, AnalysisRetry.backoffSeconds.length - 1)]! * 1000
      const asked =
        error._tag === "ModelRateLimited"
          ? Math.min(error.retry_after_ms ?? 0, AnalysisRetry.longestWaitMillis)
          : 0
      expect(wait).toBe(Math.max(backoff, asked))
      // a later failure never waits less
      const next = AnalysisRetry.decide(error, failedBefore + 1, maxAttempts + 1, now)
      if (next._tag === "RetryAt") expect(next.at.getTime()).toBeGreaterThanOrEqual(verdict.at.getTime())
    }
  )
})
