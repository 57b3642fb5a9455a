import { describe, expect, it } from "vitest"
import * as CallingHours from "../../src/calling-hours/CallingHours.js"
import * as TimeZoneCandidates from "../../src/calling-hours/TimeZoneCandidates.js"
import * as CallingClock from "../../testing/CallingClock.js"

const decide = (number: string, at: Date) => CallingHours.check(TimeZoneCandidates.forNumber(number), at)

describe("the calling clock of tests that place calls on a real server", () => {
  // the machine's clock at any hour of a winter and a summer day, the first and the last of a month
  const machine = [
    "2026-11-28T02:00:00Z",
    "2026-11-28T21:30:00Z",
    "2026-07-31T23:59:00Z",
    "2026-03-01T00:00:00Z"
  ]

  it.each(machine)(
    "at %s starts the server at 11:00 UTC that day, the inside number callable for hours",
    (iso) => {
      const now = new Date(iso)
      const start = CallingClock.start(now)
      expect(start.toISOString()).toBe(`${iso.slice(0, 10)}T11:00:00.000Z`)
      expect(now.getTime() + Number(CallingClock.env(now).CLOCK_OFFSET_SECONDS) * 1000).toBe(start.getTime())
      for (const hours of [0, 1, 5]) {
        expect(decide(CallingClock.inside, new Date(start.getTime() + hours * 3_600_000))._tag).toBe(
          "Allowed"
        )
        expect(decide(`${CallingClock.insidePrefix}222333`, start)._tag).toBe("Allowed")
      }
    }
  )

  it.each(machine)("at %s the outside number is refused until 08:00 in New York", (iso) => {
    const now = new Date(iso)
    const decision = decide(CallingClock.outside, CallingClock.start(now))
    expect(decision).toMatchObject({ _tag: "OutsideCallingHours", retryAt: CallingClock.outsideOpensAt(now) })
  })
})
