import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { MinorUnits } from "../../src/money/Money.js"
import { defaultPriceList, type NumberPricing } from "../../src/phone-numbers/NumberPricing.js"
import { compute } from "../../src/phone-numbers/PriceQuote.js"

const pricing = (activationFee: number, monthlyFee: number): NumberPricing => ({
  activationFee: MinorUnits.make(activationFee),
  monthlyFee: MinorUnits.make(monthlyFee),
  minimumPeriodMonths: 12
})

const amount = FastCheck.integer({ min: 0, max: 10_000_000 })
const balance = FastCheck.integer({ min: -10_000_000, max: 10_000_000 })

describe("PriceQuote.compute", () => {
  it("quotes activation plus the first month and needs no top-up when the balance covers it", () => {
    expect(
      compute({
        numberType: "landline",
        phoneNumberId: 7,
        pricing: defaultPriceList.landline,
        balance: 10_000
      })
    ).toEqual({
      number_type: "landline",
      phone_number_id: 7,
      activation_fee: 4900,
      monthly_fee: 999,
      price: 5899,
      balance: 10_000,
      sufficient: true,
      top_up: 0
    })
  })

  it("gives the top-up needed when the balance falls short", () => {
    const quote = compute({
      numberType: "mobile",
      phoneNumberId: null,
      pricing: pricing(500, 1999),
      balance: 1000
    })
    expect(quote).toMatchObject({ phone_number_id: null, price: 2499, sufficient: false, top_up: 1499 })
  })

  it("is sufficient when the balance equals the price exactly", () => {
    const quote = compute({
      numberType: "mobile",
      phoneNumberId: null,
      pricing: pricing(500, 1999),
      balance: 2499
    })
    expect(quote).toMatchObject({ sufficient: true, top_up: 0 })
  })

  it("adds a negative balance to the top-up", () => {
    const quote = compute({
      numberType: "mobile",
      phoneNumberId: 3,
      pricing: pricing(0, 1999),
      balance: -501
    })
    expect(quote).toMatchObject({ balance: -501, sufficient: false, top_up: 2500 })
  })

  it.prop(
    "top_up = max(0, price - balance) and sufficient iff top_up is 0",
    [amount, amount, balance],
    ([a, m, b]) => {
      const quote = compute({ numberType: "mobile", phoneNumberId: null, pricing: pricing(a, m), balance: b })
      expect(quote.price).toBe(a + m)
      expect(quote.top_up).toBe(Math.max(0, a + m - b))
      expect(quote.top_up).toBeGreaterThanOrEqual(0)
      expect(quote.sufficient).toBe(b >= a + m)
      expect(quote.sufficient).toBe(quote.top_up === 0)
      // Topping up by exactly top_up always makes the order affordable.
      expect(b + quote.top_up).toBeGreaterThanOrEqual(quote.price)
    }
  )
})
