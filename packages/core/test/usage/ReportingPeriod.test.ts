import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import { calendarMonthUtc, latestEnd, resolve } from "../../src/usage/ReportingPeriod.js"

const at = (iso: string) => new Date(iso)

// Dates between years 1000 and 9000, so that month arithmetic never leaves the Date range.
const instant = FastCheck.date({
  min: at("1000-01-01T00:00:00.000Z"),
  max: at("9000-01-01T00:00:00.000Z"),
  noInvalidDate: true
})

describe("ReportingPeriod.calendarMonthUtc", () => {
  it("is the UTC calendar month, whatever the local offset of the instant", () => {
    // 00:30 on 1 March in Warsaw is still February in UTC.
    expect(calendarMonthUtc(at("2026-03-01T00:30:00+01:00"))).toEqual({
      from: at("2026-02-01T00:00:00.000Z"),
      to: at("2026-03-01T00:00:00.000Z")
    })
    expect(calendarMonthUtc(at("2026-03-01T00:00:00.000Z"))).toEqual({
      from: at("2026-03-01T00:00:00.000Z"),
      to: at("2026-04-01T00:00:00.000Z")
    })
  })

  it("rolls December into January of the next year and knows leap Februaries", () => {
    expect(calendarMonthUtc(at("2025-12-31T23:59:59.999Z"))).toEqual({
      from: at("2025-12-01T00:00:00.000Z"),
      to: at("2026-01-01T00:00:00.000Z")
    })
    expect(calendarMonthUtc(at("2024-02-29T12:00:00Z")).to).toEqual(at("2024-03-01T00:00:00.000Z"))
  })

  it.prop("always contains now and spans exactly one whole UTC month", [instant], ([now]) => {
    const { from, to } = calendarMonthUtc(now)
    // contains now, starts on the 1st at midnight UTC, ends where the next month starts
    expect(from.getTime()).toBeLessThanOrEqual(now.getTime())
    expect(now.getTime()).toBeLessThan(to.getTime())
    expect(from.getUTCDate()).toBe(1)
    expect(to.getUTCDate()).toBe(1)
    expect(from.getUTCHours() + from.getUTCMinutes() + from.getUTCSeconds() + from.getUTCMilliseconds()).toBe(
      0
    )
    expect(to.getUTCHours() + to.getUTCMinutes() + to.getUTCSeconds() + to.getUTCMilliseconds()).toBe(0)
    expect(
      to.getUTCFullYear() * 12 + to.getUTCMonth() - (from.getUTCFullYear() * 12 + from.getUTCMonth())
    ).toBe(1)
    expect(from.getUTCMonth()).toBe(now.getUTCMonth())
  })
})

describe("ReportingPeriod.resolve", () => {
  const now = at("2026-03-15T10:00:00Z")

  it("defaults to the current UTC month", () => {
    expect(resolve({}, now)).toEqual(
      Either.right({ from: at("2026-03-01T00:00:00Z"), to: at("2026-04-01T00:00:00Z") })
    )
  })

  it("fills only the bound that is missing", () => {
    expect(resolve({ from: at("2025-06-01T00:00:00Z") }, now)).toEqual(
      Either.right({ from: at("2025-06-01T00:00:00Z"), to: at("2026-04-01T00:00:00Z") })
    )
    expect(resolve({ to: at("2026-03-20T00:00:00Z") }, now)).toEqual(
      Either.right({ from: at("2026-03-01T00:00:00Z"), to: at("2026-03-20T00:00:00Z") })
    )
  })

  it("refuses an empty or reversed period, blaming the bound the caller gave", () => {
    const same = resolve({ from: at("2026-01-01T00:00:00Z"), to: at("2026-01-01T00:00:00Z") }, now)
    expect(Either.isLeft(same) && same.left.field).toBe("from")
    expect(Either.isLeft(same) && same.left.message).toBe(
      "from (2026-01-01T00:00:00.000Z) must be before to (2026-01-01T00:00:00.000Z)"
    )
    const onlyTo = resolve({ to: at("2026-02-01T00:00:00Z") }, now)
    expect(Either.isLeft(onlyTo) && onlyTo.left).toMatchObject({
      _tag: "InvalidReportingPeriod",
      field: "to",
      from: at("2026-03-01T00:00:00Z")
    })
    const onlyFrom = resolve({ from: at("2026-05-01T00:00:00Z") }, now)
    expect(Either.isLeft(onlyFrom) && onlyFrom.left.field).toBe("from")
  })

  it.prop(
    "keeps two given bounds as they are when from < to within a year, else refuses",
    [instant, instant, instant],
    ([a, b, now]) => {
      const result = resolve({ from: a, to: b }, now)
      if (a.getTime() < b.getTime() && b.getTime() <= latestEnd(a).getTime()) {
        expect(result).toEqual(Either.right({ from: a, to: b }))
      } else expect(Either.isLeft(result)).toBe(true)
    }
  )

  it("refuses a period longer than a year, at the bound to change; a whole year is allowed", () => {
    const now = at("2026-02-10T11:00:00Z")
    expect(resolve({ from: at("2025-01-01T00:00:00Z"), to: at("2026-01-01T00:00:00Z") }, now)).toEqual(
      Either.right({ from: at("2025-01-01T00:00:00Z"), to: at("2026-01-01T00:00:00Z") })
    )
    // a leap year's 366 days are one year too
    expect(
      Either.isRight(resolve({ from: at("2024-01-01T00:00:00Z"), to: at("2025-01-01T00:00:00Z") }, now))
    ).toBe(true)
    const oneMoreMillisecond = resolve(
      { from: at("2025-01-01T00:00:00Z"), to: at("2026-01-01T00:00:00.001Z") },
      now
    )
    expect(Either.isLeft(oneMoreMillisecond) && oneMoreMillisecond.left).toMatchObject({
      _tag: "ReportingPeriodTooLong",
      field: "to"
    })
    // only `from` given: `to` is the end of this month, so `from` is the bound to change
    const onlyFrom = resolve({ from: at("2024-06-01T00:00:00Z") }, now)
    expect(Either.isLeft(onlyFrom) && onlyFrom.left).toMatchObject({
      _tag: "ReportingPeriodTooLong",
      field: "from"
    })
  })

  it.prop(
    "resolves to a non-empty period that keeps every given bound",
    [FastCheck.option(instant, { nil: undefined }), FastCheck.option(instant, { nil: undefined }), instant],
    ([from, to, now]) => {
      // whatever is given, a resolved period is non-empty and keeps every bound that was given
      const result = resolve({ from, to }, now)
      if (Either.isRight(result)) {
        expect(result.right.from.getTime()).toBeLessThan(result.right.to.getTime())
        if (from !== undefined) expect(result.right.from).toEqual(from)
        if (to !== undefined) expect(result.right.to).toEqual(to)
      }
    }
  )
})
