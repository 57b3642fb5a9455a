import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import type { CampaignStatus, ContactStatus } from "../../src/campaigns/Campaign.js"
import type { CampaignAction } from "../../src/campaigns/CampaignLifecycle.js"
import * as CampaignLifecycle from "../../src/campaigns/CampaignLifecycle.js"
import * as CampaignTally from "../../src/campaigns/CampaignTally.js"
import type { AttemptEnd } from "../../src/campaigns/RetryPolicy.js"
import * as RetryPolicy from "../../src/campaigns/RetryPolicy.js"

const statuses: ReadonlyArray<CampaignStatus> = ["created", "running", "paused", "completed", "canceled"]
const actions: ReadonlyArray<CampaignAction> = ["start", "pause", "resume", "cancel", "complete"]
const now = new Date("2026-03-01T10:00:00Z")

describe("CampaignLifecycle.transition", () => {
  it("follows created → running ⇄ paused → completed | canceled", () => {
    expect(CampaignLifecycle.transition("created", "start")).toEqual(Either.right("running"))
    expect(CampaignLifecycle.transition("running", "pause")).toEqual(Either.right("paused"))
    expect(CampaignLifecycle.transition("paused", "resume")).toEqual(Either.right("running"))
    expect(CampaignLifecycle.transition("paused", "cancel")).toEqual(Either.right("canceled"))
    expect(CampaignLifecycle.transition("running", "complete")).toEqual(Either.right("completed"))
    const refused = CampaignLifecycle.transition("completed", "resume")
    expect(Either.isLeft(refused) && refused.left.message).toBe("Cannot resume a campaign that is completed")
    expect(Either.isLeft(CampaignLifecycle.transition("created", "pause"))).toBe(true)
    expect(Either.isLeft(CampaignLifecycle.transition("running", "start"))).toBe(true)
  })

  it.prop(
    "never leaves a final state, and every allowed action lands where the table says",
    [FastCheck.constantFrom(...statuses), FastCheck.constantFrom(...actions)],
    ([status, action]) => {
      const result = CampaignLifecycle.transition(status, action)
      if (CampaignLifecycle.isFinal(status)) expect(Either.isLeft(result)).toBe(true)
      if (Either.isRight(result)) expect(result.right).toBe(CampaignLifecycle.target[action])
      expect(Either.isRight(result)).toBe(CampaignLifecycle.allowedFrom[action].includes(status))
    }
  )

  it("accepts contacts only while nothing dials", () => {
    expect(statuses.filter(CampaignLifecycle.acceptsContacts)).toEqual(["created", "paused"])
  })
})

describe("RetryPolicy.afterAttempt", () => {
  const policy = { max_attempts: 3, retry_delay_seconds: 600, retry_on: ["busy", "no_answer"] as const }

  it("completes, retries after the delay, or fails with the end as the reason", () => {
    expect(RetryPolicy.afterAttempt(policy, "completed", 1, now)).toEqual({ _tag: "Completed" })
    expect(RetryPolicy.afterAttempt(policy, "busy", 1, now)).toEqual({
      _tag: "Retry",
      at: new Date("2026-03-01T10:10:00Z"),
      outcome: "busy"
    })
    expect(RetryPolicy.afterAttempt(policy, "busy", 3, now)).toEqual({ _tag: "Failed", outcome: "busy" })
    expect(RetryPolicy.afterAttempt(policy, "failed", 1, now)).toEqual({ _tag: "Failed", outcome: "failed" })
    expect(RetryPolicy.afterAttempt(RetryPolicy.defaults, "canceled", 0, now)).toEqual({
      _tag: "Failed",
      outcome: "canceled"
    })
  })

  const ends: ReadonlyArray<AttemptEnd> = ["completed", "busy", "no_answer", "failed", "canceled"]
  const policies = FastCheck.record({
    max_attempts: FastCheck.integer({ min: 1, max: 10 }),
    retry_delay_seconds: FastCheck.integer({ min: 0, max: 604800 }),
    retry_on: FastCheck.subarray(["busy", "no_answer", "failed"] as const)
  })

  it.prop(
    "never allows more attempts than max_attempts, whatever the ends",
    [policies, FastCheck.array(FastCheck.constantFrom(...ends), { minLength: 1, maxLength: 20 })],
    ([p, outcomes]) => {
      let attempts = 0
      for (const end of outcomes) {
        attempts++
        const next = RetryPolicy.afterAttempt(p, end, attempts, now)
        if (next._tag !== "Retry") break
        expect(next.at.getTime() - now.getTime()).toBe(p.retry_delay_seconds * 1000)
      }
      expect(attempts).toBeLessThanOrEqual(p.max_attempts)
    }
  )
})

describe("CampaignTally", () => {
  const contactStatuses: ReadonlyArray<ContactStatus> = [
    "pending",
    "in_progress",
    "completed",
    "failed",
    "skipped"
  ]
  const moves = FastCheck.array(
    FastCheck.tuple(FastCheck.constantFrom(...contactStatuses), FastCheck.constantFrom(...contactStatuses)),
    { maxLength: 50 }
  )

  it.prop(
    "keeps the total when contacts move, and counts what is added",
    [FastCheck.nat(100), moves],
    ([added, steps]) => {
      let delta = CampaignTally.move(null, "pending", added)
      for (const [from, to] of steps) delta = CampaignTally.combine(delta, CampaignTally.move(from, to))
      expect(CampaignTally.total(delta.counts)).toBe(added)
    }
  )

  it("adds attempts, talk time and cost", () => {
    const delta = CampaignTally.attemptEnded(
      CampaignTally.attemptMade(CampaignTally.move("pending", "in_progress")),
      30,
      99
    )
    expect(delta).toMatchObject({ attempts: 1, duration_seconds: 30, cost: 99 })
    expect(CampaignTally.allFinal({ pending: 0, in_progress: 0, completed: 3, failed: 1, skipped: 2 })).toBe(
      true
    )
    expect(CampaignTally.allFinal({ pending: 0, in_progress: 1, completed: 3, failed: 1, skipped: 2 })).toBe(
      false
    )
  })

  it.prop(
    "a tally delta is none exactly when moves cancel out and nothing else changed",
    [
      FastCheck.constantFrom<ContactStatus>("pending", "in_progress", "completed", "failed", "skipped"),
      FastCheck.constantFrom<ContactStatus>("pending", "in_progress", "completed", "failed", "skipped"),
      FastCheck.integer({ min: 1, max: 100 })
    ],
    ([from, to, n]) => {
      const there = CampaignTally.move(from, to, n)
      expect(CampaignTally.isNone(CampaignTally.combine(there, CampaignTally.move(to, from, n)))).toBe(true)
      expect(CampaignTally.isNone(there)).toBe(from === to)
      expect(CampaignTally.isNone(CampaignTally.attemptMade(CampaignTally.none))).toBe(false)
    }
  )
})
