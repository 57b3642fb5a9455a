import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ContactImport from "../../src/campaigns/ContactImport.js"
import * as ContactPreflight from "../../src/campaigns/ContactPreflight.js"

// 12:00 in Warsaw, 06:00 in New York: a Polish number may be called, a New York one not yet.
const warsawNoon = new Date("2026-02-10T11:00:00.000Z")

const rowsOf = (numbers: ReadonlyArray<string>): Array<ContactImport.ImportRow> =>
  numbers.map((phone_number, i) => ({ row: i + 1, phone_number, initial_context: {} }))

const preflight = (
  numbers: ReadonlyArray<string>,
  inCampaign: ReadonlyArray<string> = [],
  doNotCall: ReadonlyArray<string> = [],
  now = warsawNoon
) =>
  ContactPreflight.summarize(
    numbers.length,
    ContactImport.plan(rowsOf(numbers)),
    new Set(inCampaign),
    new Set(doNotCall),
    now
  )

describe("ContactPreflight.summarize", () => {
  it("counts the rows, the invalid ones with their reasons, duplicates, Do not call hits and those outside hours", () => {
    const summary = preflight(
      [
        "+48 500 000 100", // added
        "12345", // invalid
        "+48500000100", // repeats row 1
        "+48500000101", // the campaign has it
        "+48500000102", // on the Do not call list
        "+1 212 736 5000", // New York, 06:00 there
        "+48 500 000 103" // added
      ],
      ["+48500000101"],
      ["+48500000102", "+48500000100"]
    )
    expect(summary).toEqual({
      rows: 7,
      valid: 6,
      invalid: [
        {
          row: 2,
          phone_number: "12345",
          detail: "phone_number must be a valid phone number in international format, e.g. +48500000486"
        }
      ],
      duplicates: 2,
      do_not_call: 2,
      outside_calling_hours_now: 1,
      would_add: 4
    })
  })

  it("counts a listed number outside its hours once, as Do not call (the dialer's first gate)", () => {
    const night = new Date("2026-02-10T22:30:00.000Z")
    expect(preflight(["+48500000100", "+48500000101"], [], ["+48500000100"], night)).toMatchObject({
      do_not_call: 1,
      outside_calling_hours_now: 1,
      would_add: 2
    })
  })

  it.prop(
    "adds up: rows = valid + invalid, valid = would_add + duplicates, the gates within would_add",
    [
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.integer({ min: 100, max: 130 }).map((n) => `+48500000${n}`),
          FastCheck.constantFrom("+1 212 736 5000", "+81 3-3224-9999", "nope", "+48 1")
        ),
        { maxLength: 40 }
      ),
      FastCheck.array(
        FastCheck.integer({ min: 100, max: 130 }).map((n) => `+48500000${n}`),
        { maxLength: 10 }
      ),
      FastCheck.array(
        FastCheck.integer({ min: 100, max: 130 }).map((n) => `+48500000${n}`),
        { maxLength: 10 }
      ),
      FastCheck.date({
        min: new Date("2026-01-01T00:00:00Z"),
        max: new Date("2027-01-01T00:00:00Z"),
        noInvalidDate: true
      })
    ],
    ([numbers, inCampaign, doNotCall, now]) => {
      const summary = preflight(numbers, inCampaign, doNotCall, now)
      expect(summary.rows).toBe(numbers.length)
      expect(summary.valid + summary.invalid.length).toBe(summary.rows)
      expect(summary.would_add + summary.duplicates).toBe(summary.valid)
      expect(summary.do_not_call + summary.outside_calling_hours_now).toBeLessThanOrEqual(summary.would_add)
      const plan = ContactImport.plan(rowsOf(numbers))
      const fresh = new Set(plan.accepted.map((r) => r.phone_number).filter((n) => !inCampaign.includes(n)))
      expect(summary.would_add).toBe(fresh.size)
      expect(summary.do_not_call).toBe([...fresh].filter((n) => doNotCall.includes(n)).length)
    }
  )

  it("summarizes as many rows as one import takes, every distinct valid number added", () => {
    const numbers = Array.from(
      { length: ContactImport.maxContactsPerRequest },
      (_, i) => `+48${[22, 12, 61, 71, 58][i % 5]}${String(1_000_000 + i).slice(-7)}`
    )
    const summary = preflight(numbers)
    expect(summary.would_add + summary.invalid.length).toBe(ContactImport.maxContactsPerRequest)
  })
})
