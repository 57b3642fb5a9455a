import { CallingHours, E164, TimeZoneCandidates } from "@voice-agent-platform/core"
import { Either } from "effect"

/** Number families of one time zone each: one of them is inside 08:00–21:00 at any hour of the day. */
const families: ReadonlyArray<{ readonly prefix: string; readonly digits: number }> = [
  { prefix: "+48500", digits: 6 }, // Europe/Warsaw
  { prefix: "+8190", digits: 8 }, // Asia/Tokyo
  { prefix: "+9198", digits: 8 }, // Asia/Calcutta
  { prefix: "+1212", digits: 7 }, // America/New_York
  { prefix: "+1415", digits: 7 }, // America/Los_Angeles
  { prefix: "+5255", digits: 8 } // America/Mexico_City
]

const allowed = (number: string, at: Date) =>
  CallingHours.check(TimeZoneCandidates.forNumber(number), at)._tag === "Allowed"

/**
 * `count` valid, distinct numbers that may be called from now until `minutes` later by the wall clock
 * (tests that run real servers cannot move their clock), all of one family.
 */
export const dialableNumbers = (count: number, minutes: number): ReadonlyArray<string> => {
  const now = new Date()
  const later = new Date(now.getTime() + minutes * 60_000)
  for (const { prefix, digits } of families) {
    const sample = `${prefix}${"2".repeat(digits)}`
    if (!allowed(sample, now) || !allowed(sample, later)) continue
    const numbers: Array<string> = []
    for (let i = 0; numbers.length < count && i < count * 20; i++) {
      const candidate = `${prefix}${String(2_000_000 + i * 7).padStart(digits, "3")}`
      const normalized = E164.normalize(candidate)
      if (Either.isRight(normalized) && allowed(normalized.right, now)) numbers.push(normalized.right)
    }
    if (numbers.length === count) return numbers
  }
  throw new Error("no number family is inside calling hours for the next minutes")
}
