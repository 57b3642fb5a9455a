import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import { Currency, fromDecimal, MAX_MINOR_UNITS, MinorUnits, toDecimal } from "../../src/money/Money.js"

const minorUnits = FastCheck.integer({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS })

const reasonOf = (amount: number) =>
  Either.match(fromDecimal(amount), { onLeft: (error) => error.reason, onRight: () => "ok" as const })

describe("Money.toDecimal", () => {
  it("renders minor units with 2 decimals and no float noise", () => {
    expect(toDecimal(1999)).toBe(19.99)
    expect(toDecimal(10)).toBe(0.1)
    expect(toDecimal(30)).toBe(0.3)
    expect(toDecimal(4900)).toBe(49)
    expect(toDecimal(-1)).toBe(-0.01)
    expect(toDecimal(0)).toBe(0)
    expect(Object.is(toDecimal(-0), 0)).toBe(true)
    expect(JSON.stringify({ price_pln: toDecimal(1999 + 999) })).toBe('{"price_pln":29.98}')
  })

  it.prop("prints as the exact 2-decimal figure", [minorUnits], ([n]) => {
    const sign = n < 0 ? "-" : ""
    const abs = Math.abs(n)
    const expected = `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`
    expect(toDecimal(n)).toBe(Number(expected))
  })
})

describe("Money.fromDecimal", () => {
  it("converts amounts with up to 2 decimals to integer minor units", () => {
    expect(fromDecimal(19.99)).toEqual(Either.right(1999))
    expect(fromDecimal(0.29)).toEqual(Either.right(29))
    expect(fromDecimal(49)).toEqual(Either.right(4900))
    expect(fromDecimal(-12.5)).toEqual(Either.right(-1250))
    expect(Either.getOrThrow(fromDecimal(-0))).toBe(0)
  })

  it("rejects more than 2 decimals, non-finite and out-of-range amounts", () => {
    expect(reasonOf(19.999)).toBe("too_many_decimals")
    expect(reasonOf(0.005)).toBe("too_many_decimals")
    expect(reasonOf(0.1 + 0.2)).toBe("too_many_decimals")
    expect(reasonOf(1e-300)).toBe("too_many_decimals")
    expect(reasonOf(Number.NaN)).toBe("not_finite")
    expect(reasonOf(Number.POSITIVE_INFINITY)).toBe("not_finite")
    expect(reasonOf(MAX_MINOR_UNITS / 100 + 0.01)).toBe("out_of_range")
    expect(reasonOf(MAX_MINOR_UNITS / 100)).toBe("ok")
    expect(reasonOf(-MAX_MINOR_UNITS / 100)).toBe("ok")
  })

  it("names the amount and the reason in its message", () => {
    expect(Either.flip(fromDecimal(1.234)).pipe(Either.getOrThrow).message).toBe(
      "Amount 1.234 has more than 2 decimal places"
    )
  })

  it.prop("round-trips: fromDecimal(toDecimal(n)) === n", [minorUnits], ([n]) => {
    expect(fromDecimal(toDecimal(n))).toEqual(Either.right(n === 0 ? 0 : n))
  })

  it.prop(
    "rejects an amount with a non-zero third decimal",
    [FastCheck.integer({ min: -1e15, max: 1e15 }).filter((thousandths) => thousandths % 10 !== 0)],
    ([thousandths]) => {
      expect(reasonOf(thousandths / 1000)).toBe("too_many_decimals")
    }
  )
})

describe("Money schemas", () => {
  it("MinorUnits accepts integers in range and rejects fractions and huge amounts", () => {
    const decode = Schema.decodeUnknownEither(MinorUnits)
    expect(decode(1999)).toEqual(Either.right(1999))
    expect(Either.isLeft(decode(19.99))).toBe(true)
    expect(Either.isLeft(decode(MAX_MINOR_UNITS + 1))).toBe(true)
    expect(Either.isLeft(decode("1999"))).toBe(true)
  })

  it("Currency is PLN only", () => {
    expect(Schema.is(Currency)("PLN")).toBe(true)
    expect(Schema.is(Currency)("EUR")).toBe(false)
  })
})
