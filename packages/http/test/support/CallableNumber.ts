import { CallingHours, TimeZoneCandidates } from "@voice-agent-platform/core"

/** Numbers with one candidate time zone each, spread round the clock so one is always inside 08:00-21:00. */
const candidates = [
  "+81312345678", // Asia/Tokyo
  "+919812345678", // Asia/Calcutta
  "+48500100200", // Europe/Warsaw
  "+551130000000", // America/Sao_Paulo
  "+12125551234", // America/New_York
  "+12135551234" // America/Los_Angeles
]

/**
 * A number a call may be placed to now and for the next `minutes` (tests that run a real server, with the
 * real clock, must not meet the calling-hours refusal at night).
 */
export const callableNumber = (minutes = 20, now = new Date()): string => {
  const later = new Date(now.getTime() + minutes * 60_000)
  const found = candidates.find((number) => {
    const zones = TimeZoneCandidates.forNumber(number)
    return CallingHours.isAllowedAt(zones, now) && CallingHours.isAllowedAt(zones, later)
  })
  if (found === undefined)
    throw new Error(`no candidate number is inside calling hours at ${now.toISOString()}`)
  return found
}

/** A number a call may not be placed to now (outside 08:00-21:00 in its time zone): a 409 for sure. */
export const uncallableNumber = (now = new Date()): string => {
  const found = candidates.find(
    (number) => !CallingHours.isAllowedAt(TimeZoneCandidates.forNumber(number), now)
  )
  if (found === undefined)
    throw new Error(`every candidate number is inside calling hours at ${now.toISOString()}`)
  return found
}
