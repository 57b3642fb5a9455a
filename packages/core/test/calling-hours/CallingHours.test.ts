import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { parsePhoneNumberFromString } from "libphonenumber-js/max"
import { check, Decision, defaultWindow, isAllowedAt } from "../../src/calling-hours/CallingHours.js"
import { NoCallingWindow } from "../../src/calling-hours/CallingHoursErrors.js"
import { forNumber, forPrefix, listedPrefixes } from "../../src/calling-hours/TimeZoneCandidates.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE

const at = (iso: string): Date => new Date(iso)
const allowed = Decision.Allowed()
const refused = (retryAt: string, retryAfterSeconds: number) =>
  Decision.OutsideCallingHours({ retryAt: at(retryAt), retryAfterSeconds })

// An oracle independent of the module: each zone's wall clock straight from Intl.
const clocks = new Map<string, Intl.DateTimeFormat>()
const localMsOfDay = (zone: string, epochMillis: number): number => {
  let clock = clocks.get(zone)
  if (clock === undefined) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      fractionalSecondDigits: 3
    })
    clocks.set(zone, clock)
  }
  const parts = clock.formatToParts(epochMillis)
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((_) => _.type === type)!.value)
  return ((part("hour") * 60 + part("minute")) * 60 + part("second")) * 1000 + part("fractionalSecond")
}
const oracleAllows = (zones: ReadonlyArray<string>, epochMillis: number, window = defaultWindow): boolean =>
  zones.every((zone) => {
    const local = localMsOfDay(zone, epochMillis)
    return local >= window.opensAt * MINUTE && local < window.closesAt * MINUTE
  })

/** A valid fixed-line number of a North American area code whose exchange the data does not list. */
const unlistedExchangeNumber = (areaCode: string): string => {
  const listed = new Set(listedPrefixes())
  for (let exchange = 200; exchange <= 999; exchange++) {
    if (listed.has(`1${areaCode}${exchange}`)) continue
    const parsed = parsePhoneNumberFromString(`+1${areaCode}${exchange}2345`)
    if (parsed?.isValid() && parsed.getType() === "FIXED_LINE_OR_MOBILE") return parsed.number
  }
  throw new Error(`No valid number with an unlisted exchange in ${areaCode}`)
}

/** Every distinct candidate set the data can produce: each listed prefix's subtree, each area code's. */
const candidateSets: ReadonlyArray<ReadonlyArray<string>> = (() => {
  const sets = new Map<string, ReadonlyArray<string>>()
  for (const prefix of listedPrefixes()) {
    for (const key of prefix.startsWith("1") && prefix.length >= 4
      ? [prefix, prefix.slice(0, 4)]
      : [prefix]) {
      const zones = forPrefix(key)
      sets.set(zones.join("&"), zones)
    }
  }
  return [...sets.values()]
})()

const WARSAW = ["Europe/Warsaw"]

describe("CallingHours", () => {
  it("the default window is [08:00, 21:00)", () => {
    expect(defaultWindow).toEqual({ opensAt: 480, closesAt: 1260 })
  })

  describe("Warsaw", () => {
    // 2026-01-15 is CET (UTC+1).
    it.each([
      ["06:59:00Z", refused("2026-01-15T07:00:00Z", 60)],
      ["07:00:00Z", allowed],
      ["19:59:00Z", allowed],
      ["19:59:59.999Z", allowed],
      ["20:00:00Z", refused("2026-01-16T07:00:00Z", 11 * 3600)]
    ])("an ordinary day, 2026-01-15T%s", (time, decision) => {
      expect(check(WARSAW, at(`2026-01-15T${time}`))).toEqual(decision)
    })

    // 2026-03-29: clocks go from 02:00 CET to 03:00 CEST at 01:00Z; the day is CEST (UTC+2).
    it.each([
      ["2026-03-29T05:59:00Z", refused("2026-03-29T06:00:00Z", 60)],
      ["2026-03-29T06:00:00Z", allowed],
      ["2026-03-29T18:59:00Z", allowed],
      ["2026-03-29T19:00:00Z", refused("2026-03-30T06:00:00Z", 11 * 3600)],
      // Before the change: a constant offset would answer 07:00Z.
      ["2026-03-29T00:30:00Z", refused("2026-03-29T06:00:00Z", 5.5 * 3600)],
      ["2026-03-28T20:00:00Z", refused("2026-03-29T06:00:00Z", 10 * 3600)]
    ])("spring change day, %s", (now, decision) => {
      expect(check(WARSAW, at(now))).toEqual(decision)
    })

    // 2026-10-25: clocks go from 03:00 CEST back to 02:00 CET at 01:00Z; the day is CET (UTC+1).
    it.each([
      ["2026-10-25T06:59:00Z", refused("2026-10-25T07:00:00Z", 60)],
      ["2026-10-25T07:00:00Z", allowed],
      ["2026-10-25T19:59:00Z", allowed],
      ["2026-10-25T20:00:00Z", refused("2026-10-26T07:00:00Z", 11 * 3600)],
      // Before the change: a constant offset would answer 06:00Z, 07:00 local.
      ["2026-10-25T00:30:00Z", refused("2026-10-25T07:00:00Z", 6.5 * 3600)],
      ["2026-10-24T19:00:00Z", refused("2026-10-25T07:00:00Z", 12 * 3600)]
    ])("autumn change day, %s", (now, decision) => {
      expect(check(WARSAW, at(now))).toEqual(decision)
    })

    it("retry-after seconds round up", () => {
      expect(check(WARSAW, at("2026-01-15T06:59:59.001Z"))).toEqual(refused("2026-01-15T07:00:00Z", 1))
      expect(check(WARSAW, at("2026-01-15T06:58:59.999Z"))).toEqual(refused("2026-01-15T07:00:00Z", 61))
      expect(check(WARSAW, at("2026-01-15T06:59:59.999Z"))).toEqual(refused("2026-01-15T07:00:00Z", 1))
    })
  })

  describe("a North American area code spanning two zones (850, unlisted exchange)", () => {
    const zones = forNumber(unlistedExchangeNumber("850"))

    it("has both zones", () => {
      expect(zones).toEqual(["America/Chicago", "America/New_York"])
    })

    // 2026-07-15: New York is EDT (UTC-4), Chicago CDT (UTC-5).
    it.each([
      // 08:30 in New York, 07:30 in Chicago: wait for Chicago's 08:00.
      ["2026-07-15T12:30:00Z", refused("2026-07-15T13:00:00Z", 1800)],
      ["2026-07-15T13:00:00Z", allowed],
      ["2026-07-16T00:59:00Z", allowed],
      // 21:00 in New York, 20:00 in Chicago: wait for Chicago's 08:00 next day.
      ["2026-07-16T01:00:00Z", refused("2026-07-16T13:00:00Z", 12 * 3600)]
    ])("%s", (now, decision) => {
      expect(check(zones, at(now))).toEqual(decision)
    })

    it("across the US spring change (2026-03-08, 2:00 local)", () => {
      // 02:00Z is 21:00 EST on the 7th; by the next morning both zones are on DST (Chicago opens at 13:00Z).
      expect(check(zones, at("2026-03-08T02:00:00Z"))).toEqual(refused("2026-03-08T13:00:00Z", 11 * 3600))
    })
  })

  describe("Arizona (America/Phoenix, no DST)", () => {
    const phoenix = ["America/Phoenix"]
    const denver = ["America/Denver"]

    it.each(["2026-07-15", "2026-01-15"])("%s: opens at 15:00Z and closes at 04:00Z", (day) => {
      expect(check(phoenix, at(`${day}T14:59:00Z`))).toEqual(refused(`${day}T15:00:00Z`, 60))
      expect(check(phoenix, at(`${day}T15:00:00Z`))).toEqual(allowed)
      const next = new Date(at(`${day}T00:00:00Z`).getTime() + 24 * HOUR).toISOString().slice(0, 10)
      expect(check(phoenix, at(`${next}T03:59:00Z`))).toEqual(allowed)
      expect(check(phoenix, at(`${next}T04:00:00Z`))).toEqual(refused(`${next}T15:00:00Z`, 11 * 3600))
    })

    it("Denver, next door, moves with DST", () => {
      expect(check(denver, at("2026-07-15T14:00:00Z"))).toEqual(allowed)
      expect(check(denver, at("2026-01-15T14:00:00Z"))).toEqual(refused("2026-01-15T15:00:00Z", 3600))
    })
  })

  describe("a +1 toll-free number (every North American zone)", () => {
    const zones = forNumber("+18005551234")

    it("is refused most of the day, with a short window", () => {
      // Guam (UTC+10) opens at 22:00Z; St. John's (UTC-2:30 in summer) closes at 23:30Z.
      expect(check(zones, at("2026-07-15T12:00:00Z"))).toEqual(refused("2026-07-15T22:00:00Z", 10 * 3600))
      expect(isAllowedAt(zones, at("2026-07-15T23:29:59.999Z"))).toBe(true)
      expect(isAllowedAt(zones, at("2026-07-15T23:30:00Z"))).toBe(false)
      // In winter St. John's is UTC-3:30: the window is 22:00Z-00:30Z.
      expect(check(zones, at("2026-01-15T00:29:00Z"))).toEqual(allowed)
      expect(check(zones, at("2026-01-15T00:30:00Z"))).toEqual(refused("2026-01-15T22:00:00Z", 21.5 * 3600))
    })
  })

  describe("edge cases", () => {
    it("no zones (a non-geographic number) is allowed at any time", () => {
      expect(check([], at("2026-01-15T03:00:00Z"))).toEqual(allowed)
      expect(isAllowedAt([], at("2026-01-15T03:00:00Z"))).toBe(true)
    })

    it("a custom window", () => {
      const window = { opensAt: 9 * 60, closesAt: 17 * 60 + 30 }
      expect(check(WARSAW, at("2026-01-15T07:30:00Z"), window)).toEqual(refused("2026-01-15T08:00:00Z", 1800))
      expect(check(WARSAW, at("2026-01-15T16:29:00Z"), window)).toEqual(allowed)
      expect(check(WARSAW, at("2026-01-15T16:30:00Z"), window)).toEqual(
        refused("2026-01-16T08:00:00Z", 15.5 * 3600)
      )
    })

    it("a window that opens during a DST jump opens at the jump, to the millisecond", () => {
      // Warsaw, 2026-03-29T01:00Z: 02:00 CET becomes 03:00 CEST; a 02:30 opening never happens that day.
      const window = { opensAt: 2 * 60 + 30, closesAt: 23 * 60 }
      expect(check(WARSAW, at("2026-03-29T00:00:00Z"), window)).toEqual(refused("2026-03-29T01:00:00Z", 3600))
      expect(isAllowedAt(WARSAW, at("2026-03-29T00:59:59.999Z"), window)).toBe(false)
      expect(isAllowedAt(WARSAW, at("2026-03-29T01:00:00Z"), window)).toBe(true)
      // 2026-10-25T01:00Z: 03:00 CEST becomes 02:00 CET, so 02:00-03:00 local happens twice.
      expect(isAllowedAt(WARSAW, at("2026-10-25T00:59:59.999Z"), window)).toBe(true)
      expect(isAllowedAt(WARSAW, at("2026-10-25T01:00:00Z"), window)).toBe(false)
      expect(check(WARSAW, at("2026-10-25T01:00:00Z"), window)).toEqual(refused("2026-10-25T01:30:00Z", 1800))
    })

    it("an invalid window, zone or instant is a defect", () => {
      expect(() => check(WARSAW, at("2026-01-15T07:30:00Z"), { opensAt: 600, closesAt: 600 })).toThrow()
      expect(() => check(WARSAW, at("2026-01-15T07:30:00Z"), { opensAt: -1, closesAt: 600 })).toThrow()
      expect(() => check(["Mars/Olympus_Mons"], at("2026-01-15T07:30:00Z"))).toThrow()
      expect(() => check(WARSAW, new Date(Number.NaN))).toThrow()
    })

    it("zones with no common window are a defect, not an endless search", () => {
      // UTC, UTC+8 and UTC-8: no 13-hour stretch holds all three.
      const zones = ["Etc/GMT", "Etc/GMT-8", "Etc/GMT+8"]
      expect(() => check(zones, at("2026-01-15T00:00:00Z"))).toThrow(NoCallingWindow)
    })

    it("every candidate set in the data has a window within a day, all year", () => {
      const starts = [
        ...Array.from({ length: 24 }, (_, i) =>
          Date.UTC(2026, Math.floor(i / 2), i % 2 === 0 ? 1 : 15, i % 24)
        ),
        Date.parse("2026-03-08T09:00:00Z"),
        Date.parse("2026-03-29T00:30:00Z"),
        Date.parse("2026-04-04T14:30:00Z"),
        Date.parse("2026-10-04T14:30:00Z"),
        Date.parse("2026-10-25T00:30:00Z"),
        Date.parse("2026-11-01T05:30:00Z")
      ]
      const failures: Array<string> = []
      for (const zones of candidateSets) {
        for (const start of starts) {
          try {
            const decision = check(zones, new Date(start))
            if (decision._tag === "OutsideCallingHours" && decision.retryAfterSeconds > 25 * 3600) {
              failures.push(
                `${zones.join("&")} from ${new Date(start).toISOString()}: ${decision.retryAfterSeconds}s`
              )
            }
          } catch (error) {
            failures.push(`${zones.join("&")} from ${new Date(start).toISOString()}: ${String(error)}`)
          }
        }
      }
      expect(failures).toEqual([])
      expect(candidateSets.length).toBeGreaterThan(300)
    })
  })

  describe("properties", () => {
    const instants = FastCheck.oneof(
      FastCheck.integer({ min: Date.parse("2025-01-01T00:00:00Z"), max: Date.parse("2027-12-31T00:00:00Z") }),
      // Near the offset changes of Europe, the US, Australia (and Lord Howe's half hour), New Zealand.
      FastCheck.tuple(
        FastCheck.constantFrom(
          "2026-03-08T10:00:00Z",
          "2026-03-29T01:00:00Z",
          "2026-04-04T15:00:00Z",
          "2026-04-04T14:30:00Z",
          "2026-09-26T14:00:00Z",
          "2026-10-03T16:00:00Z",
          "2026-10-25T01:00:00Z",
          "2026-11-01T06:00:00Z"
        ),
        FastCheck.integer({ min: -36 * HOUR, max: 36 * HOUR })
      ).map(([change, shift]) => Date.parse(change) + shift)
    )
    const changes = FastCheck.tuple(
      FastCheck.constantFrom(
        "2026-03-08T07:00:00Z", // New York
        "2026-03-08T10:00:00Z", // Los Angeles
        "2026-03-29T01:00:00Z", // Europe
        "2026-04-04T15:00:00Z", // Lord Howe (half an hour)
        "2026-04-04T16:00:00Z", // Sydney
        "2026-09-26T14:00:00Z", // Auckland
        "2026-10-25T01:00:00Z", // Europe
        "2026-11-01T06:00:00Z" // New York
      ),
      FastCheck.constantFrom(0, -1, 1, -MINUTE, MINUTE, -30 * MINUTE, 30 * MINUTE)
    ).map(([change, shift]) => Date.parse(change) + shift)
    const windows = FastCheck.tuple(
      FastCheck.integer({ min: 0, max: 24 * 60 - 1 }),
      FastCheck.integer({ min: 1, max: 24 * 60 })
    )
      .filter(([opensAt, closesAt]) => opensAt < closesAt)
      .map(([opensAt, closesAt]) => ({ opensAt, closesAt }))
    const singleZones = FastCheck.constantFrom(
      "America/New_York",
      "America/Los_Angeles",
      "Europe/Warsaw",
      "Australia/Lord_Howe",
      "Australia/Sydney",
      "Pacific/Auckland",
      "Asia/Kathmandu",
      "America/St_Johns"
    )

    it.prop(
      "any window, any single zone, at and around offset changes: retryAt is exact",
      [singleZones, windows, FastCheck.oneof(changes, instants)],
      ([zone, window, now]) => {
        const zones = [zone]
        const decision = check(zones, new Date(now), window)
        expect(isAllowedAt(zones, new Date(now), window)).toBe(oracleAllows(zones, now, window))
        expect(decision._tag === "Allowed").toBe(oracleAllows(zones, now, window))
        if (decision._tag === "Allowed") return
        const retryAt = decision.retryAt.getTime()
        expect(oracleAllows(zones, retryAt, window)).toBe(true)
        expect(oracleAllows(zones, retryAt - 1, window)).toBe(false)
        for (let minute = Math.ceil(now / MINUTE) * MINUTE; minute < retryAt; minute += MINUTE) {
          if (oracleAllows(zones, minute, window)) expect.fail(`${new Date(minute).toISOString()} is allowed`)
        }
      },
      { fastCheck: { numRuns: 300 } }
    )

    const zoneSets = FastCheck.constantFrom(...candidateSets)
    const largeSets = FastCheck.constantFrom(forPrefix("1"), forPrefix("7"), forPrefix("61"), forPrefix("55"))

    const checkProperties = (zones: ReadonlyArray<string>, nowMillis: number) => {
      const now = new Date(nowMillis)
      const decision = check(zones, now)
      expect(decision._tag === "Allowed").toBe(isAllowedAt(zones, now))
      expect(isAllowedAt(zones, now)).toBe(oracleAllows(zones, nowMillis))
      if (decision._tag === "Allowed") return
      const retryAt = decision.retryAt.getTime()
      expect(retryAt).toBeGreaterThan(nowMillis)
      expect(decision.retryAfterSeconds).toBe(Math.ceil((retryAt - nowMillis) / 1000))
      expect(oracleAllows(zones, retryAt)).toBe(true)
      expect(isAllowedAt(zones, decision.retryAt)).toBe(true)
      expect(oracleAllows(zones, retryAt - 1)).toBe(false)
      for (let minute = Math.ceil(nowMillis / MINUTE) * MINUTE; minute < retryAt; minute += MINUTE) {
        if (oracleAllows(zones, minute)) expect.fail(`${new Date(minute).toISOString()} is allowed`)
      }
    }

    it.prop(
      "retryAt is the first allowed instant at or after now",
      [zoneSets, instants],
      ([zones, now]) => checkProperties(zones, now),
      { fastCheck: { numRuns: 300 } }
    )

    it.prop(
      "retryAt is the first allowed instant, for whole countries",
      [largeSets, instants],
      ([zones, now]) => checkProperties(zones, now),
      { fastCheck: { numRuns: 20 } }
    )

    it.prop(
      "isAllowedAt agrees with each zone's wall clock, to the millisecond",
      [zoneSets, instants],
      ([zones, now]) => {
        expect(isAllowedAt(zones, new Date(now))).toBe(oracleAllows(zones, now))
      },
      { fastCheck: { numRuns: 1000 } }
    )
  })
})
