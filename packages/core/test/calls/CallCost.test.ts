import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as CallCost from "../../src/calls/CallCost.js"
import type { CallRate } from "../../src/calls/CallRates.js"
import { defaultCallRate } from "../../src/calls/CallRates.js"
import { MinorUnits } from "../../src/money/Money.js"

const perSecond: CallRate = { per_minute: MinorUnits.make(25), increment_seconds: 1 }
const rate = FastCheck.record({
  per_minute: FastCheck.integer({ min: 0, max: 100_000 }).map(MinorUnits.make),
  increment_seconds: FastCheck.integer({ min: 1, max: 3600 })
})
const seconds = FastCheck.double({ min: 0, max: 24 * 3600, noNaN: true })

describe("CallCost.wholeSeconds", () => {
  it("rounds a reported duration up to whole seconds; nothing below zero", () => {
    expect(CallCost.wholeSeconds(0)).toBe(0)
    expect(CallCost.wholeSeconds(0.2)).toBe(1)
    expect(CallCost.wholeSeconds(4)).toBe(4)
    expect(CallCost.wholeSeconds(4.0001)).toBe(5)
    expect(CallCost.wholeSeconds(-3)).toBe(0)
    expect(CallCost.wholeSeconds(Number.NaN)).toBe(0)
    expect(CallCost.wholeSeconds(Number.POSITIVE_INFINITY)).toBe(0)
  })
})

describe("CallCost.compute", () => {
  it("bills every started minute in full by default: 0.25 PLN a minute", () => {
    expect(defaultCallRate).toEqual({ per_minute: 25, increment_seconds: 60 })
    expect(CallCost.compute(0, defaultCallRate)).toBe(0)
    expect(CallCost.compute(0.2, defaultCallRate)).toBe(25)
    expect(CallCost.compute(4, defaultCallRate)).toBe(25)
    expect(CallCost.compute(60, defaultCallRate)).toBe(25)
    expect(CallCost.compute(61, defaultCallRate)).toBe(50)
    expect(CallCost.compute(600, defaultCallRate)).toBe(250)
  })

  it("bills by the second with a 1-second increment, rounded up to a whole grosz", () => {
    expect(CallCost.compute(4, perSecond)).toBe(2) // 4 × 25/60 = 1.67
    expect(CallCost.compute(12, perSecond)).toBe(5) // exactly 5
    expect(CallCost.compute(61, perSecond)).toBe(26) // 25.42
    expect(CallCost.compute(0, perSecond)).toBe(0)
  })

  it.prop("is the per-minute rate over the billed seconds, rounded up", [seconds, rate], ([s, r]) => {
    const billed = CallCost.billedSeconds(s, r.increment_seconds)
    expect(billed % r.increment_seconds).toBe(0)
    expect(billed).toBeGreaterThanOrEqual(CallCost.wholeSeconds(s))
    expect(billed - CallCost.wholeSeconds(s)).toBeLessThan(r.increment_seconds)
    const cost = CallCost.compute(s, r)
    expect(Number.isInteger(cost)).toBe(true)
    expect(cost * 60).toBeGreaterThanOrEqual(billed * r.per_minute)
    expect((cost - 1) * 60).toBeLessThan(billed * r.per_minute)
  })

  it.prop("never falls as a call gets longer", [seconds, seconds, rate], ([a, b, r]) => {
    const [shorter, longer] = a <= b ? [a, b] : [b, a]
    expect(CallCost.compute(shorter, r)).toBeLessThanOrEqual(CallCost.compute(longer, r))
  })

  it.prop(
    "bills per started minute what a per-minute tariff says",
    [FastCheck.integer({ min: 0, max: 24 * 3600 })],
    ([s]) => {
      expect(CallCost.compute(s, defaultCallRate)).toBe(Math.ceil(s / 60) * 25)
    }
  )
})
