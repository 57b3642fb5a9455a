import { describe, expect, it } from "@effect/vitest"
import {
  formatDateTime,
  formatDuration,
  formatMinutes,
  formatMoney,
  formatStatus,
  textOf
} from "../../src/text/Formats.js"

describe("values as the console shows them", () => {
  it("shows times in UTC, money with two decimals, durations in minutes and seconds", () => {
    expect(formatDateTime("2026-11-27T12:10:05.000Z")).toBe("27 Nov 2026, 12:10 UTC")
    expect(formatDateTime(null)).toBe("—")
    expect(formatDateTime("not a date")).toBe("not a date")
    expect(formatMoney(12.5)).toBe("12.50 PLN")
    expect(formatMoney(null)).toBe("—")
    expect(formatDuration(65)).toBe("1 min 5 s")
    expect(formatDuration(120)).toBe("2 min")
    expect(formatDuration(7)).toBe("7 s")
    expect(formatMinutes(90)).toBe("1.5")
    expect(formatStatus("no_answer")).toBe("no answer")
  })

  it("shows free-form values as one line of text, markup and all", () => {
    expect(textOf("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>")
    expect(textOf({ a: [1, "b"] })).toBe('{"a":[1,"b"]}')
    expect(textOf(null)).toBe("—")
    expect(textOf(false)).toBe("false")
  })
})
