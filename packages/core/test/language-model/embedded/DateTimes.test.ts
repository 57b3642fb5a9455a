import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as DateTimes from "../../../src/language-model/embedded/DateTimes.js"

const iso = (text: string) => DateTimes.dateIn(text)?.iso

describe("DateTimes", () => {
  it("reads dates written with digits, day first unless the month cannot be first", () => {
    expect(iso("2026-03-14")).toBe("2026-03-14")
    expect(iso("on 2026-3-4 please")).toBe("2026-03-04")
    expect(iso("14.03.2026")).toBe("2026-03-14")
    expect(iso("14/03/2026")).toBe("2026-03-14")
    expect(iso("03/04/2026")).toBe("2026-04-03")
    expect(iso("12/25/2026")).toBe("2026-12-25")
    expect(iso("4-7-2026")).toBe("2026-07-04")
    expect(iso("the 2026-03-14T15:30 slot")).toBe("2026-03-14")
  })

  it("reads dates with month names, English and Polish", () => {
    expect(iso("March 14, 2026")).toBe("2026-03-14")
    expect(iso("March 14th 2026")).toBe("2026-03-14")
    expect(iso("on the 14th of March, 2026")).toBe("2026-03-14")
    expect(iso("14 March 2026")).toBe("2026-03-14")
    expect(iso("Sept. 3rd, 2026")).toBe("2026-09-03")
    expect(iso("1 May 1990")).toBe("1990-05-01")
    expect(iso("14 marca 2026")).toBe("2026-03-14")
    expect(iso("3 października 2026 r.")).toBe("2026-10-03")
    expect(iso("5 maja 2026")).toBe("2026-05-05")
    expect(iso("21 grudzień 2026")).toBe("2026-12-21")
  })

  it("keeps a date without a year as its words, without a calendar date", () => {
    expect(DateTimes.dateIn("How about March 14?")).toMatchObject({ iso: null, phrase: "March 14" })
    expect(DateTimes.dateIn("w piątek 14 marca")).toMatchObject({ iso: null, phrase: "14 marca" })
  })

  it("finds no date where there is none, or where the day does not exist", () => {
    expect(DateTimes.dateIn("tomorrow at noon")).toBeUndefined()
    expect(DateTimes.dateIn("2026-02-30")).toBeUndefined()
    expect(DateTimes.dateIn("2025-02-29")).toBeUndefined()
    expect(iso("2028-02-29")).toBe("2028-02-29")
    expect(DateTimes.dateIn("45 May 2026")).toBeUndefined()
    expect(DateTimes.dateIn("you may 5 times")).toMatchObject({ iso: null })
    expect(DateTimes.dateIn("remarkable 12 apples")).toBeUndefined()
    expect(DateTimes.dateIn("call +48 500 100 200")).toBeUndefined()
  })

  it("reads times on a 24-hour clock", () => {
    expect(DateTimes.timeIn("15:30")).toBe("15:30")
    expect(DateTimes.timeIn("at 3:30 pm")).toBe("15:30")
    expect(DateTimes.timeIn("3pm works")).toBe("15:00")
    expect(DateTimes.timeIn("9 a.m.")).toBe("09:00")
    expect(DateTimes.timeIn("12 am")).toBe("00:00")
    expect(DateTimes.timeIn("12pm")).toBe("12:00")
    expect(DateTimes.timeIn("around noon")).toBe("12:00")
    expect(DateTimes.timeIn("o 15")).toBe("15:00")
    expect(DateTimes.timeIn("o godzinie 9.45")).toBe("09:45")
    expect(DateTimes.timeIn("w południe")).toBe("12:00")
    expect(DateTimes.timeIn("14 marca 2026 o 15:30")).toBe("15:30")
  })

  it("finds no time in numbers that are not one", () => {
    expect(DateTimes.timeIn("25:99")).toBeUndefined()
    expect(DateTimes.timeIn("I have 3 kids")).toBeUndefined()
    expect(DateTimes.timeIn("14.03.2026")).toBeUndefined()
    expect(DateTimes.timeIn("13 pm")).toBeUndefined()
  })

  it.prop(
    "every date written as YYYY-MM-DD, D.M.YYYY or D Month YYYY reads back",
    [FastCheck.date({ min: new Date("1900-01-01"), max: new Date("2999-12-31"), noInvalidDate: true })],
    ([date]) => {
      const expected = date.toISOString().slice(0, 10)
      const [y, m, d] = expected.split("-").map(Number) as [number, number, number]
      const month = new Date(Date.UTC(2000, m - 1, 1)).toLocaleString("en", {
        month: "long",
        timeZone: "UTC"
      })
      expect(iso(`on ${expected}`)).toBe(expected)
      expect(iso(`${d}.${m}.${y}`)).toBe(expected)
      expect(iso(`${d} ${month} ${y}`)).toBe(expected)
      expect(iso(`${month} ${d}, ${y}`)).toBe(expected)
    }
  )

  it.prop(
    "reading any text never throws and finds only real dates",
    [FastCheck.string({ maxLength: 60 })],
    ([text]) => {
      for (const found of DateTimes.datesIn(text)) {
        expect(text.slice(found.start, found.end)).toBe(found.phrase)
        if (found.iso !== null)
          expect(new Date(`${found.iso}T00:00:00Z`).toISOString().slice(0, 10)).toBe(found.iso)
      }
      const time = DateTimes.timeIn(text)
      if (time !== undefined) expect(time).toMatch(/^(?:[01]\d|2[0-3]):[0-5]\d$/)
    }
  )
})
