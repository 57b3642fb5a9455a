import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Values from "../../../src/language-model/embedded/Values.js"

describe("Values", () => {
  it("finds e-mail addresses", () => {
    expect(Values.emailIn("sure, it's jan.kowalski+shop@example.co.uk.")).toBe(
      "jan.kowalski+shop@example.co.uk"
    )
    expect(Values.emailIn("mój e-mail to anna@poczta.pl")).toBe("anna@poczta.pl")
    expect(Values.emailIn("Zażółć@gęślą.pl")).toBe("Zażółć@gęślą.pl")
    expect(Values.emailIn("no address here @ all")).toBeUndefined()
    expect(Values.emailIn("it's jan.k at example dot co dot uk")).toBe("jan.k@example.co.uk")
    expect(Values.emailIn("anna małpa poczta kropka pl")).toBe("anna@poczta.pl")
    expect(Values.emailIn("I'm at home")).toBeUndefined()
  })

  it("normalises international phone numbers to E.164 and keeps national ones as digits", () => {
    expect(Values.phoneIn("call me at +48 500 100 200")).toBe("+48500100200")
    expect(Values.phoneIn("+1 (415) 555-2671 is my cell")).toBe("+14155552671")
    expect(Values.phoneIn("0048 500-100-200")).toBe("+48500100200")
    expect(Values.phoneIn("my number is 500 100 200")).toBe("500100200")
    expect(Values.phoneIn("mój numer to 22 123 45 67")).toBe("221234567")
  })

  it("does not take dates, times, short numbers or e-mails for phone numbers", () => {
    expect(Values.phoneIn("on 2026-03-14 at 15:30")).toBeUndefined()
    expect(Values.phoneIn("14.03.2026")).toBeUndefined()
    expect(Values.phoneIn("I ordered 1,250 units")).toBeUndefined()
    expect(Values.phoneIn("order 123456")).toBeUndefined()
    expect(Values.phoneIn("write to 500100200@example.com")).toBeUndefined()
  })

  it("finds the first number, in digits or words", () => {
    expect(Values.numberIn("we are 4 people")).toBe(4)
    expect(Values.numberIn("about 3.5 hours")).toBe(3.5)
    expect(Values.numberIn("3,5 kg")).toBe(3.5)
    expect(Values.numberIn("1,250 units")).toBe(1250)
    expect(Values.numberIn("minus -7 degrees")).toBe(-7)
    expect(Values.numberIn("four of us")).toBe(4)
    expect(Values.numberIn("twenty five, I think")).toBe(25)
    expect(Values.numberIn("forty")).toBe(40)
    expect(Values.numberIn("dwie osoby")).toBe(2)
    expect(Values.numberIn("pięć")).toBe(5)
    expect(Values.numberIn("none")).toBeUndefined()
  })

  it("skips the numbers of dates, times, phones and e-mails", () => {
    expect(Values.numberIn("on 14 March 2026 at 15:30, for 3 people")).toBe(3)
    expect(Values.numberIn("+48 500 100 200, 2 tickets")).toBe(2)
    expect(Values.numberIn("jan2@example.com")).toBeUndefined()
  })

  it("reads the first yes or no", () => {
    expect(Values.yesNoIn("Yes, please")).toBe(true)
    expect(Values.yesNoIn("yeah sure")).toBe(true)
    expect(Values.yesNoIn("Of course!")).toBe(true)
    expect(Values.yesNoIn("true")).toBe(true)
    expect(Values.yesNoIn("No, thanks")).toBe(false)
    expect(Values.yesNoIn("I don't think so")).toBe(false)
    expect(Values.yesNoIn("not really")).toBe(false)
    expect(Values.yesNoIn("false")).toBe(false)
    expect(Values.yesNoIn("Tak, poproszę")).toBe(true)
    expect(Values.yesNoIn("Zgadza się")).toBe(true)
    expect(Values.yesNoIn("Nie, dziękuję")).toBe(false)
    expect(Values.yesNoIn("maybe")).toBeUndefined()
  })

  it.prop("a number written with digits reads back", [FastCheck.integer({ min: 0, max: 99_999 })], ([n]) => {
    expect(Values.numberIn(`I would like ${n} of them`)).toBe(n)
  })

  it.prop(
    "reading any text never throws; phones found are E.164 or digits",
    [FastCheck.string({ maxLength: 60 })],
    ([text]) => {
      for (const { phone } of Values.phonesIn(text)) expect(phone).toMatch(/^\+?\d{7,15}$/)
      const n = Values.numberIn(text)
      if (n !== undefined) expect(Number.isFinite(n)).toBe(true)
      Values.yesNoIn(text)
      Values.emailIn(text)
    }
  )
})
