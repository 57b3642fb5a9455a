import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { commitmentUntil, compute, periodStart } from "../../src/phone-numbers/ReleaseQuote.js"

const at = (iso: string) => new Date(iso)
const plusMillis = (date: Date, millis: number) => new Date(date.getTime() + millis)

const quote = (activatedAt: Date, now: Date, minimumPeriodMonths = 12, monthlyFee = 1999) =>
  compute({ phoneNumberId: 42, activatedAt, minimumPeriodMonths, monthlyFee, now })

// Independent of the module: the wall-clock reading of an instant in Warsaw.
const warsaw = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Warsaw",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit"
})
const wallClock = (date: Date) => {
  const parts = Object.fromEntries(warsaw.formatToParts(date).map((part) => [part.type, Number(part.value)]))
  return {
    year: parts["year"] ?? 0,
    month: parts["month"] ?? 0,
    day: parts["day"] ?? 0,
    time: `${parts["hour"]}:${parts["minute"]}:${parts["second"]}.${date.getUTCMilliseconds()}`
  }
}
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

// 31 January 2025, 12:00 in Warsaw (CET).
const jan31 = at("2025-01-31T11:00:00.000Z")

describe("ReleaseQuote periods and commitment", () => {
  it("clamps an activation on 31 January to each month's end, computing every month from the activation", () => {
    expect(periodStart(jan31, 1)).toEqual(at("2025-02-28T11:00:00.000Z"))
    // Not chained from 28 February: back to the 31st, at 12:00 CEST.
    expect(periodStart(jan31, 2)).toEqual(at("2025-03-31T10:00:00.000Z"))
    expect(periodStart(jan31, 3)).toEqual(at("2025-04-30T10:00:00.000Z"))
    expect(commitmentUntil(jan31, 12)).toEqual(at("2026-01-31T11:00:00.000Z"))
  })

  it("clamps an activation on 31 August across the autumn clock change", () => {
    // 31 August 2025, 09:00 CEST.
    const aug31 = at("2025-08-31T07:00:00.000Z")
    expect(periodStart(aug31, 1)).toEqual(at("2025-09-30T07:00:00.000Z"))
    expect(periodStart(aug31, 2)).toEqual(at("2025-10-31T08:00:00.000Z"))
    expect(periodStart(aug31, 3)).toEqual(at("2025-11-30T08:00:00.000Z"))
    expect(periodStart(aug31, 6)).toEqual(at("2026-02-28T08:00:00.000Z"))
    expect(commitmentUntil(aug31, 12)).toEqual(at("2026-08-31T07:00:00.000Z"))
  })

  it("handles leap years: 31 January 2024 → 29 February, 29 February 2024 → 28 February 2025", () => {
    expect(periodStart(at("2024-01-31T11:00:00.000Z"), 1)).toEqual(at("2024-02-29T11:00:00.000Z"))
    const feb29 = at("2024-02-29T09:00:00.000Z")
    expect(periodStart(feb29, 1)).toEqual(at("2024-03-29T09:00:00.000Z"))
    expect(periodStart(feb29, 2)).toEqual(at("2024-04-29T08:00:00.000Z"))
    expect(commitmentUntil(feb29, 12)).toEqual(at("2025-02-28T09:00:00.000Z"))
    expect(commitmentUntil(feb29, 48)).toEqual(at("2028-02-29T09:00:00.000Z"))
    expect(quote(feb29, at("2025-02-28T08:59:59.999Z")).periods).toBe(0)
    expect(quote(feb29, at("2024-03-29T08:59:59.999Z")).periods).toBe(11)
  })

  it("moves a wall-clock time in the spring-forward gap to the same instant's CEST reading", () => {
    // 30 January 2025, 02:30 CET; 30 March 2025 has no 02:30 (clocks jump 02:00 → 03:00).
    const activatedAt = at("2025-01-30T01:30:00.000Z")
    expect(periodStart(activatedAt, 2)).toEqual(at("2025-03-30T01:30:00.000Z"))
    expect(wallClock(periodStart(activatedAt, 2)).time).toBe("3:30:0.0")
    // The next month is computed from the activation again: back to 02:30 (now CEST).
    expect(periodStart(activatedAt, 3)).toEqual(at("2025-04-30T00:30:00.000Z"))
  })

  it("resolves an ambiguous autumn wall-clock time to its first occurrence, but never moves the activation", () => {
    // 26 September 2025, 02:30 CEST → 26 October 2025 02:30 happens twice; the first one (CEST) is used.
    expect(periodStart(at("2025-09-26T00:30:00.000Z"), 1)).toEqual(at("2025-10-26T00:30:00.000Z"))
    // An activation during the repeated hour's second occurrence (02:30 CET) is period 0 as is.
    const repeatedHour = at("2025-10-26T01:30:00.000Z")
    expect(periodStart(repeatedHour, 0)).toEqual(repeatedHour)
    expect(commitmentUntil(repeatedHour, 0)).toEqual(repeatedHour)
    expect(periodStart(repeatedHour, 1)).toEqual(at("2025-11-26T01:30:00.000Z"))
  })
})

describe("ReleaseQuote.compute", () => {
  it("at the activation instant, every month but the paid first one is due", () => {
    expect(quote(jan31, jan31)).toEqual({
      phone_number_id: 42,
      fee: 11 * 1999,
      periods: 11,
      commitment_until: at("2026-01-31T11:00:00.000Z")
    })
  })

  it("a period starting exactly now contains now, so it is paid", () => {
    const boundary = at("2025-02-28T11:00:00.000Z")
    expect(quote(jan31, boundary)).toMatchObject({ periods: 10, fee: 10 * 1999 })
  })

  it("one millisecond before a boundary the next period is still due; one after, it is paid", () => {
    const boundary = at("2025-03-31T10:00:00.000Z")
    expect(quote(jan31, plusMillis(boundary, -1)).periods).toBe(10)
    expect(quote(jan31, boundary).periods).toBe(9)
    expect(quote(jan31, plusMillis(boundary, 1)).periods).toBe(9)
  })

  it("in the last period nothing is due, and nothing once the commitment has ended", () => {
    const lastPeriod = at("2025-12-31T11:00:00.000Z")
    expect(quote(jan31, plusMillis(lastPeriod, -1)).periods).toBe(1)
    expect(quote(jan31, lastPeriod)).toMatchObject({ periods: 0, fee: 0 })
    const end = at("2026-01-31T11:00:00.000Z")
    expect(quote(jan31, end)).toMatchObject({ periods: 0, fee: 0, commitment_until: end })
    expect(quote(jan31, at("2030-06-01T00:00:00.000Z"))).toMatchObject({ periods: 0, fee: 0 })
  })

  it("treats a quote before the activation (clock skew) like one at the activation", () => {
    expect(quote(jan31, plusMillis(jan31, -60_000)).periods).toBe(11)
  })

  it("owes nothing with a minimum period of one month or none", () => {
    expect(quote(jan31, jan31, 1)).toEqual({
      phone_number_id: 42,
      fee: 0,
      periods: 0,
      commitment_until: at("2025-02-28T11:00:00.000Z")
    })
    expect(quote(jan31, jan31, 0)).toEqual({
      phone_number_id: 42,
      fee: 0,
      periods: 0,
      commitment_until: jan31
    })
  })

  it("uses Warsaw calendar months even when the UTC date differs", () => {
    // 1 March 2025, 00:30 in Warsaw is still 28 February in UTC; the periods start on the 1st in Warsaw.
    const activatedAt = at("2025-02-28T23:30:00.000Z")
    expect(periodStart(activatedAt, 1)).toEqual(at("2025-03-31T22:30:00.000Z"))
    expect(commitmentUntil(activatedAt, 12)).toEqual(at("2026-02-28T23:30:00.000Z"))
  })
})

const activation = FastCheck.date({
  min: new Date("2000-01-01T00:00:00.000Z"),
  max: new Date("2100-01-01T00:00:00.000Z"),
  noInvalidDate: true
})
const minimumMonths = FastCheck.integer({ min: 0, max: 36 })
const monthlyFee = FastCheck.integer({ min: 0, max: 1_000_000 })
// Up to about 40 months after the activation, so that "after the commitment" is reached too.
const elapsed = FastCheck.integer({ min: 0, max: 40 * 31 * 24 * 3600 * 1000 })

describe("ReleaseQuote properties", () => {
  it.prop(
    "periods is in 0..min-1, fee = periods × monthly fee, both 0 from commitment_until on",
    [activation, minimumMonths, monthlyFee, elapsed],
    ([activatedAt, min, fee, offset]) => {
      const now = plusMillis(activatedAt, offset)
      const result = quote(activatedAt, now, min, fee)
      expect(result.periods).toBeGreaterThanOrEqual(0)
      expect(result.periods).toBeLessThanOrEqual(Math.max(0, min - 1))
      expect(result.fee).toBe(result.periods * fee)
      if (now.getTime() >= result.commitment_until.getTime())
        expect(result).toMatchObject({ periods: 0, fee: 0 })
    }
  )

  it.prop(
    "periods counts exactly the billing periods starting after now and before commitment_until",
    [activation, minimumMonths, elapsed],
    ([activatedAt, min, offset]) => {
      const now = plusMillis(activatedAt, offset)
      let expected = 0
      for (let k = 0; k < min; k++) {
        const start = periodStart(activatedAt, k)
        if (start > now && start < commitmentUntil(activatedAt, min)) expected++
      }
      expect(quote(activatedAt, now, min).periods).toBe(expected)
    }
  )

  it.prop(
    "periods never increases as now advances",
    [activation, minimumMonths, elapsed, elapsed],
    ([activatedAt, min, a, b]) => {
      const earlier = quote(activatedAt, plusMillis(activatedAt, Math.min(a, b)), min)
      const later = quote(activatedAt, plusMillis(activatedAt, Math.max(a, b)), min)
      expect(later.periods).toBeLessThanOrEqual(earlier.periods)
    }
  )

  it.prop(
    "period k starts on the activation's Warsaw day + k months, clamped to the month's end",
    [activation, FastCheck.integer({ min: 1, max: 36 })],
    ([activatedAt, k]) => {
      const start = wallClock(activatedAt)
      const monthIndex = start.month - 1 + k
      const year = start.year + Math.floor(monthIndex / 12)
      const month = (monthIndex % 12) + 1
      const expected = { year, month, day: Math.min(start.day, daysInMonth(year, month)) }
      const actual = wallClock(periodStart(activatedAt, k))
      expect({ year: actual.year, month: actual.month, day: actual.day }).toEqual(expected)
      // The wall-clock time is kept, except inside the spring-forward gap (02:xx, moved one hour on).
      if (actual.time !== start.time) {
        expect(actual.month).toBe(3)
        expect(start.time.startsWith("2:")).toBe(true)
        expect(actual.time).toBe(start.time.replace(/^2:/, "3:"))
      }
      expect(periodStart(activatedAt, k) > periodStart(activatedAt, k - 1)).toBe(true)
    }
  )
})
