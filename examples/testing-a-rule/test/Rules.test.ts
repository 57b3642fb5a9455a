// How to unit-test the engine's domain rules in your own project: nothing but @effect/vitest and
// @voice-agent-platform/core. Rules are plain functions of their inputs (they never read the clock),
// so a test gives them `now` and checks the answer.
import { describe, expect, it } from "@effect/vitest"
import { CallingHours, ReleaseQuote, TimeZoneCandidates, TranscriptTurns } from "@voice-agent-platform/core"
import { FastCheck } from "effect"

describe("calling hours for a Polish number", () => {
  const zones = TimeZoneCandidates.forNumber("+48500000486")

  it("knows where the number rings", () => {
    expect(zones).toEqual(["Europe/Warsaw"])
  })

  it("refuses a call at 07:59 in Warsaw and says to retry at 08:00", () => {
    const decision = CallingHours.check(zones, new Date("2026-06-01T05:59:00Z")) // 07:59 CEST
    expect(decision).toEqual(
      CallingHours.Decision.OutsideCallingHours({
        retryAt: new Date("2026-06-01T06:00:00Z"),
        retryAfterSeconds: 60
      })
    )
  })

  it.prop(
    "never answers a retry time at which the call would still be refused",
    [FastCheck.date({ min: new Date("2026-01-01"), max: new Date("2027-01-01"), noInvalidDate: true })],
    ([now]) => {
      const decision = CallingHours.check(zones, now)
      if (decision._tag === "OutsideCallingHours") {
        expect(CallingHours.isAllowedAt(zones, decision.retryAt)).toBe(true)
      }
    }
  )
})

describe("other rules are tested the same way", () => {
  it("a release quote counts the unpaid months of the minimum period", () => {
    const quote = ReleaseQuote.compute({
      phoneNumberId: 1,
      activatedAt: new Date("2026-01-31T09:00:00Z"),
      minimumPeriodMonths: 12,
      monthlyFee: 1999,
      now: new Date("2026-11-22T12:00:00Z")
    })
    // Billing periods start on the 31st, clamped to the month end: 30 Nov and 31 Dec are still unpaid.
    expect(quote.periods).toBe(2)
    expect(quote.fee).toBe(2 * 1999)
    expect(quote.commitment_until).toEqual(new Date("2027-01-31T09:00:00Z"))
  })

  it("consecutive fragments of one speaker form one turn", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s))
    const turns = TranscriptTurns.merge([
      { role: "assistant", text: "Hello!", timestamp: at(0) },
      { role: "assistant", text: "Is this Ola?", timestamp: at(1) },
      { role: "user", text: "Yes.", timestamp: at(3) }
    ])
    expect(turns.map((t) => [t.role, t.text])).toEqual([
      ["assistant", "Hello! Is this Ola?"],
      ["user", "Yes."]
    ])
  })
})
