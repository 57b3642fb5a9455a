import { describe, expect, it } from "@effect/vitest"
import {
  daysOf,
  monthOf,
  periodOf,
  scaleTop,
  shiftMonth,
  usageCsv,
  csvCell
} from "../../src/screens/usage/UsageSeries.js"

describe("the usage screen's rules", () => {
  it("reads the month from the address, else the current one in UTC, and its period", () => {
    const now = new Date("2026-11-30T23:30:00.000Z")
    expect(monthOf(new URLSearchParams("month=2026-02"), now)).toBe("2026-02")
    expect(monthOf(new URLSearchParams("month=2026-13"), now)).toBe("2026-11")
    expect(monthOf(new URLSearchParams(""), now)).toBe("2026-11")
    expect(shiftMonth("2026-01", -1)).toBe("2025-12")
    expect(shiftMonth("2026-12", 1)).toBe("2027-01")
    expect(periodOf("2026-12")).toEqual({ from: "2026-12-01T00:00:00.000Z", to: "2027-01-01T00:00:00.000Z" })
  })

  it("gives every day of the month, with 0 for the days the report left out", () => {
    const days = daysOf("2024-02", [{ day: "2024-02-10", calls: 3, duration_seconds: 90, cost_pln: 1.5 }])
    expect(days).toHaveLength(29)
    expect(days[0]).toEqual({ day: "2024-02-01", calls: 0, duration_seconds: 0, cost_pln: 0 })
    expect(days[9]).toEqual({ day: "2024-02-10", calls: 3, duration_seconds: 90, cost_pln: 1.5 })
    expect(days.at(-1)!.day).toBe("2024-02-29")
  })

  it("tops a chart's scale with a round number at least the largest value", () => {
    expect([0, 1, 3, 7, 10, 11, 0.26, 0.03, 480].map(scaleTop)).toEqual([1, 1, 5, 10, 10, 20, 0.5, 0.05, 500])
  })

  it("writes the report as CSV: a line a day and the totals", () => {
    expect(
      usageCsv(
        [{ day: "2026-11-27", calls: 2, duration_seconds: 95, cost_pln: 0.5 }],
        { calls: 2, duration_seconds: 95, cost_pln: 0.5 },
        "PLN"
      )
    ).toBe("day,calls,duration_seconds,cost,currency\r\n2026-11-27,2,95,0.50,PLN\r\ntotal,2,95,0.50,PLN\r\n")
  })

  it("writes a text cell no spreadsheet reads as a formula, quoted when it must be", () => {
    expect(csvCell(12)).toBe("12")
    expect(csvCell("2026-11-27")).toBe("2026-11-27")
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvCell(`${start}1+1`).replace(/^"/, "")).toMatch(/^'/)
    }
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"')
    expect(csvCell("a,b")).toBe('"a,b"')
    expect(csvCell("two\nlines")).toBe('"two\nlines"')
  })
})
