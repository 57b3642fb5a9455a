import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import {
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString
} from "libphonenumber-js/max"
import type { NumberType } from "libphonenumber-js/max"
import examples from "libphonenumber-js/mobile/examples"
import {
  corrections,
  forNumber,
  forPrefix,
  listedPrefixes
} from "../../src/calling-hours/TimeZoneCandidates.js"
import { prefixesByZones } from "../../src/calling-hours/TimeZonePrefixes.js"

const FIXED: ReadonlyArray<NumberType> = ["FIXED_LINE", "FIXED_LINE_OR_MOBILE"]
const listed = new Set(listedPrefixes())

/** The first valid number of one of `types` that starts with `+prefix` (a search, not a guess). */
const buildNumber = (prefix: string, types: ReadonlyArray<NumberType>): string => {
  for (let length = prefix.length + 4; length <= 15; length++) {
    for (const filler of [
      "2345678901234",
      "1234567890123",
      "5550123456789",
      "0000000000000",
      "9876543210987"
    ]) {
      const candidate = parsePhoneNumberFromString(`+${(prefix + filler).slice(0, length)}`)
      if (candidate?.isValid() && types.includes(candidate.getType())) return candidate.number
    }
  }
  throw new Error(`No valid ${types.join("/")} number starts with +${prefix}`)
}

/** A valid geographic number of a North American area code whose exchange is (or is not) listed. */
const northAmericanNumber = (areaCode: string, exchangeListed: boolean): string => {
  for (let exchange = 200; exchange <= 999; exchange++) {
    const prefix = `1${areaCode}${exchange}`
    if (listed.has(prefix) !== exchangeListed) continue
    try {
      return buildNumber(prefix, FIXED)
    } catch {
      // no valid number in this exchange: try the next
    }
  }
  throw new Error(`No valid number in area code ${areaCode} (exchange listed: ${exchangeListed})`)
}

const typeOf = (e164: string): NumberType => parsePhoneNumberFromString(e164)?.getType()

const AUSTRALIA = [
  "Australia/Adelaide",
  "Australia/Brisbane",
  "Australia/Eucla",
  "Australia/Lord_Howe",
  "Australia/Perth",
  "Australia/Sydney",
  "Indian/Christmas",
  "Indian/Cocos"
]

describe("TimeZoneCandidates", () => {
  describe("North American fixed lines", () => {
    it.each(["850", "812", "270", "423"])("area code %s, unlisted exchange: Chicago and New York", (area) => {
      const number = northAmericanNumber(area, false)
      expect(parsePhoneNumberFromString(number)?.isValid()).toBe(true)
      expect(forNumber(number)).toEqual(["America/Chicago", "America/New_York"])
    })

    it.each([
      ["605", ["America/Chicago", "America/Denver", "America/North_Dakota/Center"]],
      ["208", ["America/Boise", "America/Denver", "America/Los_Angeles"]],
      ["928", ["America/Denver", "America/Phoenix"]]
    ])("area code %s, unlisted exchange: every zone of the area code", (area, zones) => {
      expect(forNumber(northAmericanNumber(area, false))).toEqual(zones)
    })

    it.each([
      ["212", "America/New_York"],
      ["808", "Pacific/Honolulu"],
      ["602", "America/Phoenix"]
    ])("area code %s: one zone", (area, zone) => {
      expect(forNumber(northAmericanNumber(area, false))).toEqual([zone])
    })

    it("a listed exchange takes that exchange's zone only", () => {
      // 1 850 is New York with Central-time exchanges listed one by one.
      const number = northAmericanNumber("850", true)
      expect(forNumber(number)).toEqual(["America/Chicago"])
    })

    it("a listed 5- or 6-digit prefix does not narrow it: only the exact exchange does", () => {
      // 1 850 23 is listed as Chicago, but the contract trusts an exchange only when it is listed itself.
      expect(listed.has("185023")).toBe(true)
      expect(listed.has("1850230")).toBe(false)
      const number = buildNumber("1850230", FIXED)
      expect(forNumber(number)).toEqual(["America/Chicago", "America/New_York"])
    })

    it.each(["800", "888"])("toll-free +1 %s: every North American zone", (code) => {
      const number = buildNumber(`1${code}`, ["TOLL_FREE"])
      const zones = forNumber(number)
      expect(zones).toEqual(forPrefix("1"))
      expect(zones).toHaveLength(42)
      expect(zones).toEqual(expect.arrayContaining(["America/St_Johns", "Pacific/Guam", "Pacific/Pago_Pago"]))
    })
  })

  describe("other countries", () => {
    it("+48 landline and mobile: Europe/Warsaw only", () => {
      const landline = buildNumber("4822", ["FIXED_LINE"])
      const mobile = buildNumber("48500", ["MOBILE"])
      expect([typeOf(landline), typeOf(mobile)]).toEqual(["FIXED_LINE", "MOBILE"])
      expect(forNumber(landline)).toEqual(["Europe/Warsaw"])
      expect(forNumber(mobile)).toEqual(["Europe/Warsaw"])
    })

    it("+61 4 mobile: all 8 Australian zones", () => {
      const mobile = buildNumber("614", ["MOBILE"])
      expect(typeOf(mobile)).toBe("MOBILE")
      expect(forNumber(mobile)).toEqual(AUSTRALIA)
    })

    it("+61 fixed line: every zone in the subtree of its longest listed prefix", () => {
      expect(forNumber(buildNumber("613", ["FIXED_LINE"]))).toEqual(["Australia/Sydney"])
      // 612 lists Lord Howe Island's exchanges below it.
      expect(forNumber(buildNumber("612", ["FIXED_LINE"]))).toEqual([
        "Australia/Lord_Howe",
        "Australia/Sydney"
      ])
    })

    it("+7 9 mobile: every Russian zone, corrected ones included", () => {
      const mobile = buildNumber("79", ["MOBILE"])
      const zones = forNumber(mobile)
      expect(zones).toEqual(forPrefix("7"))
      expect(zones).toEqual(
        expect.arrayContaining([
          "Asia/Anadyr",
          "Asia/Kamchatka",
          "Asia/Vladivostok",
          "Europe/Kaliningrad",
          "Europe/Moscow",
          "Europe/Samara",
          "Europe/Saratov"
        ])
      )
      // libphonenumber's 16 zones, plus Kaliningrad and Saratov from the corrections.
      expect(zones).toHaveLength(18)
    })

    it.each([
      ["7401", "Europe/Kaliningrad"],
      ["7845", "Europe/Saratov"]
    ])("corrected prefix %s: %s", (prefix, zone) => {
      const number = buildNumber(prefix, FIXED)
      expect(forNumber(number)).toEqual([zone])
      expect(corrections[prefix]).toBe(zone)
    })

    it("the corrections are applied on top of the generated data, which still has the errors", () => {
      const raw = (prefix: string) =>
        Object.keys(prefixesByZones).filter((zones) => prefixesByZones[zones]!.split(" ").includes(prefix))
      expect(raw("7845")).toEqual(["Europe/Moscow"])
      expect(raw("740")).toEqual(["Europe/Bucharest"])
      expect(forPrefix("7845")).toEqual(["Europe/Saratov"])
      expect(forPrefix("7401")).toEqual(["Europe/Kaliningrad"])
    })

    it("a mobile number takes its country's zones even where fixed lines are narrower", () => {
      const mobile = buildNumber("1850", ["FIXED_LINE_OR_MOBILE"])
      const landline = forNumber(mobile)
      // A US number is FIXED_LINE_OR_MOBILE: geographic. A Brazilian mobile is not.
      expect(landline.length).toBeLessThan(forPrefix("1").length)
      expect(forNumber(buildNumber("5511", ["MOBILE"]))).toEqual(forPrefix("55"))
    })
  })

  describe("fallbacks", () => {
    it("every country libphonenumber knows has candidate zones", () => {
      const failures: Array<string> = []
      for (const country of getCountries()) {
        const callingCode = getCountryCallingCode(country)
        if (forPrefix(callingCode).length === 0) failures.push(`${country} +${callingCode}: no zones`)
        const example = getExampleNumber(country, examples)
        if (example === undefined) continue
        if (!example.isValid()) failures.push(`${country}: example ${example.number} is invalid`)
        else if (forNumber(example.number).length === 0)
          failures.push(`${country}: ${example.number} has no zones`)
      }
      expect(failures).toEqual([])
      expect(getCountries().length).toBeGreaterThan(240)
    })

    it("a number that does not parse falls back to its country's zones", () => {
      expect(parsePhoneNumberFromString("+481")).toBeUndefined()
      expect(forNumber("+481")).toEqual(["Europe/Warsaw"])
    })

    it("a parsed but invalid number (no type) takes its country's zones", () => {
      const invalid = "+1850555"
      expect(parsePhoneNumberFromString(`${invalid}01234`)?.isValid()).toBe(false)
      expect(forNumber(`${invalid}01234`)).toEqual(forPrefix("1"))
    })

    it("non-geographic calling codes have no zones (documented: no local time applies)", () => {
      const freephone = buildNumber("800", ["TOLL_FREE"])
      expect(forNumber(freephone)).toEqual([])
      expect(forNumber("not a number")).toEqual([])
    })

    it("every zone in the data is a time zone the runtime knows", () => {
      const zones = new Set(listedPrefixes().flatMap(forPrefix))
      const unknown = [...zones].filter((zone) => {
        try {
          new Intl.DateTimeFormat("en-US", { timeZone: zone })
          return false
        } catch {
          return true
        }
      })
      expect(unknown).toEqual([])
      expect(zones.size).toBeGreaterThan(280)
    })
  })

  describe("properties", () => {
    const prefixes = FastCheck.constantFrom(...listedPrefixes())

    it.prop("forPrefix is sorted, unique and non-empty for every listed prefix", [prefixes], ([prefix]) => {
      const zones = forPrefix(prefix)
      expect(zones.length).toBeGreaterThan(0)
      expect([...new Set(zones)].sort()).toEqual(zones)
    })

    const validNumbers = FastCheck.tuple(prefixes, FastCheck.stringMatching(/^[0-9]{4,10}$/))
      .map(([prefix, rest]) => parsePhoneNumberFromString(`+${prefix}${rest}`))
      .filter((parsed) => parsed !== undefined && parsed.isValid())
      .map((parsed) => parsed!)

    it.prop(
      "a valid number's zones are sorted, unique, non-empty, and within its country's",
      [validNumbers],
      ([parsed]) => {
        const zones = forNumber(parsed.number)
        const country = forPrefix(parsed.countryCallingCode)
        expect(zones.length).toBeGreaterThan(0)
        expect([...new Set(zones)].sort()).toEqual(zones)
        expect(country).toEqual(expect.arrayContaining([...zones]))
        if (!FIXED.includes(parsed.getType())) expect(zones).toEqual(country)
      },
      { fastCheck: { numRuns: 500 } }
    )
  })
})
