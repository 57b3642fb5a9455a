import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { ModelPrice } from "../../src/language-model/ModelPricing.js"
import { cost, freeModel } from "../../src/language-model/ModelPricing.js"

const usage = (prompt_tokens: number, completion_tokens = 0) => ({ prompt_tokens, completion_tokens })
const price = (pln_per_mtok_in: number, pln_per_mtok_out = 0): ModelPrice => ({
  pln_per_mtok_in,
  pln_per_mtok_out
})

const tokens = FastCheck.integer({ min: 0, max: 10_000_000_000 })
/** A price with at most six decimals, as configuration takes it. */
const anyPrice = FastCheck.integer({ min: 0, max: 1_000_000_000_000 }).map((micro) => micro / 1_000_000)

describe("ModelPricing.cost", () => {
  it("charges nothing for no tokens or at a zero price", () => {
    expect(cost(usage(0, 0), price(3, 15))).toBe(0)
    expect(cost(usage(1_000_000, 1_000_000), freeModel)).toBe(0)
    expect(cost(usage(0, 1_000_000), price(3, 0))).toBe(0)
  })

  it("charges prompt and completion tokens at their own price, in grosze", () => {
    // 1 M prompt tokens at 2.5 PLN and half a million completion tokens at 10 PLN: 7.50 PLN
    expect(cost(usage(1_000_000, 500_000), price(2.5, 10))).toBe(750)
    expect(cost(usage(2_000_000, 0), price(0.01, 999))).toBe(2)
  })

  it("rounds up to a whole grosz: any tokens at a non-zero price cost at least 1 grosz", () => {
    expect(cost(usage(1), price(0.000001))).toBe(1)
    expect(cost(usage(0, 1), price(0, 0.000001))).toBe(1)
    // 10,001 tokens at 1 PLN per million: 1.0001 grosz
    expect(cost(usage(10_001), price(1))).toBe(2)
    expect(cost(usage(10_000), price(1))).toBe(1)
  })

  it("is exact for large counts where floating point is not", () => {
    // 1e9 * 0.3 / 1e6 * 100 is 30000.000000000004 in floating point
    expect(cost(usage(1_000_000_000), price(0.3))).toBe(30_000)
    expect(cost(usage(0, 3_000_000_000), price(0, 0.1))).toBe(30_000)
    expect(cost(usage(7_000_000_000, 7_000_000_000), price(0.7, 0.07))).toBe(539_000)
  })

  it("takes prices to six decimals, rounding anything finer", () => {
    // 10^10 tokens make a millionth of a PLN per million tokens one grosz
    expect(cost(usage(10_000_000_000), price(1.000001))).toBe(1_000_001)
    expect(cost(usage(10_000_000_000), price(1.0000004))).toBe(1_000_000)
    expect(cost(usage(10_000_000_000), price(1.0000006))).toBe(1_000_001)
  })

  it.prop(
    "whole million-token counts at whole-grosz prices cost exactly their product",
    [
      FastCheck.integer({ min: 0, max: 1_000_000 }),
      FastCheck.integer({ min: 0, max: 100_000_000 }),
      FastCheck.integer({ min: 0, max: 1_000_000 }),
      FastCheck.integer({ min: 0, max: 100_000_000 })
    ],
    ([mtokIn, groszeIn, mtokOut, groszeOut]) => {
      expect(
        cost(usage(mtokIn * 1_000_000, mtokOut * 1_000_000), price(groszeIn / 100, groszeOut / 100))
      ).toBe(mtokIn * groszeIn + mtokOut * groszeOut)
    }
  )

  it.prop(
    "more tokens or a higher price never cost less",
    [tokens, tokens, tokens, anyPrice, anyPrice, anyPrice],
    ([a, b, extra, p, q, more]) => {
      const base = cost(usage(a, b), price(p, q))
      expect(cost(usage(a + extra, b), price(p, q))).toBeGreaterThanOrEqual(base)
      expect(cost(usage(a, b + extra), price(p, q))).toBeGreaterThanOrEqual(base)
      expect(cost(usage(a, b), price(p + more, q))).toBeGreaterThanOrEqual(base)
      expect(cost(usage(a, b), price(p, q + more))).toBeGreaterThanOrEqual(base)
    }
  )

  it.prop(
    "a whole grosz, zero only when nothing is charged, and within a grosz of the parts charged apart",
    [tokens, tokens, anyPrice, anyPrice],
    ([a, b, p, q]) => {
      const whole = cost(usage(a, b), price(p, q))
      expect(Number.isSafeInteger(whole)).toBe(true)
      expect(whole === 0).toBe((a === 0 || p === 0) && (b === 0 || q === 0))
      const apart = cost(usage(a, 0), price(p, q)) + cost(usage(0, b), price(p, q))
      expect(whole).toBeLessThanOrEqual(apart)
      expect(whole).toBeGreaterThanOrEqual(apart - 1)
    }
  )
})
