import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  DEFAULT_MINIMUM_PERIOD_MONTHS,
  defaultPriceList,
  NumberPricing,
  NumberType,
  PriceList
} from "../../src/phone-numbers/NumberPricing.js"

describe("NumberPricing", () => {
  it("defaults the minimum period to 12 months when the configuration omits it", () => {
    const decoded = Schema.decodeUnknownSync(NumberPricing)({ activationFee: 0, monthlyFee: 1999 })
    expect(decoded).toEqual({ activationFee: 0, monthlyFee: 1999, minimumPeriodMonths: 12 })
    expect(DEFAULT_MINIMUM_PERIOD_MONTHS).toBe(12)
  })

  it("keeps a configured minimum period", () => {
    const decoded = Schema.decodeUnknownSync(NumberPricing)({
      activationFee: 4900,
      monthlyFee: 999,
      minimumPeriodMonths: 24
    })
    expect(decoded.minimumPeriodMonths).toBe(24)
  })

  it("rejects negative or fractional fees and a negative minimum period", () => {
    const decode = Schema.decodeUnknownEither(NumberPricing)
    expect(Either.isLeft(decode({ activationFee: -1, monthlyFee: 1999 }))).toBe(true)
    expect(Either.isLeft(decode({ activationFee: 0, monthlyFee: 19.99 }))).toBe(true)
    expect(Either.isLeft(decode({ activationFee: 0, monthlyFee: 1999, minimumPeriodMonths: -1 }))).toBe(true)
    expect(Either.isLeft(decode({ activationFee: 0, monthlyFee: 1999, minimumPeriodMonths: 1.5 }))).toBe(true)
  })

  it("knows exactly the mobile and landline number types", () => {
    expect(NumberType.literals).toEqual(["mobile", "landline"])
    expect(Schema.is(NumberType)("toll_free")).toBe(false)
  })

  it("ships a default price list with both types, valid against its schema", () => {
    expect(Schema.is(PriceList)(defaultPriceList)).toBe(true)
    expect(defaultPriceList).toEqual({
      mobile: { activationFee: 0, monthlyFee: 1999, minimumPeriodMonths: 12 },
      landline: { activationFee: 4900, monthlyFee: 999, minimumPeriodMonths: 12 }
    })
  })

  it("requires a price for every number type", () => {
    const decode = Schema.decodeUnknownEither(PriceList)
    expect(Either.isLeft(decode({ mobile: { activationFee: 0, monthlyFee: 1999 } }))).toBe(true)
  })
})
