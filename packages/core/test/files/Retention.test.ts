import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Retention from "../../src/files/Retention.js"

const now = new Date("2026-05-01T12:00:00Z")
const day = 24 * 60 * 60 * 1000
const both = { recording: "r.wav", transcript: "t.txt" }
const ended = (msAgo: number, files: Retention.RunFilesLike = both) => ({
  ended_at: new Date(now.getTime() - msAgo),
  files
})

describe("Retention", () => {
  it("keeps files for good when the organization sets no retention", () => {
    expect(Retention.cutoff(null, now)).toBeNull()
    expect(Retention.isDue(ended(10_000 * day), null, now)).toBe(false)
  })

  it("makes files due exactly when ended_at + retention days <= now", () => {
    expect(Retention.cutoff(30, now)).toEqual(new Date("2026-04-01T12:00:00Z"))
    expect(Retention.isDue(ended(30 * day), 30, now)).toBe(true)
    expect(Retention.isDue(ended(30 * day - 1), 30, now)).toBe(false)
    expect(Retention.isDue(ended(30 * day + 1), 30, now)).toBe(true)
    expect(Retention.isDue(ended(day), 1, now)).toBe(true)
  })

  it("never makes a live or fileless run due, and sweeps only the keys it has", () => {
    expect(Retention.isDue({ ended_at: null, files: both }, 1, now)).toBe(false)
    const noFiles = { recording: null, transcript: null }
    expect(Retention.isDue(ended(100 * day, noFiles), 1, now)).toBe(false)
    expect(Retention.keys({ files: { recording: null, transcript: "t.txt" } })).toEqual(["t.txt"])
    expect(Retention.keys({ files: both })).toEqual(["r.wav", "t.txt"])
    expect(Retention.keys({ files: noFiles })).toEqual([])
  })

  it.prop(
    "files are due exactly from ended_at + retention days on, for any age and retention",
    [FastCheck.integer({ min: 1, max: 3650 }), FastCheck.integer({ min: 0, max: 4000 * day })],
    ([days, age]) => {
      // due iff the age reached the retention, and once due it stays due as time goes on
      expect(Retention.isDue(ended(age), days, now)).toBe(age >= days * day)
      if (Retention.isDue(ended(age), days, now)) {
        expect(Retention.isDue(ended(age + 1), days, now)).toBe(true)
      }
      // the cutoff is the store's query bound: due iff ended at or before it
      const cutoff = Retention.cutoff(days, now)!
      expect(ended(age).ended_at.getTime() <= cutoff.getTime()).toBe(Retention.isDue(ended(age), days, now))
    }
  )
})
