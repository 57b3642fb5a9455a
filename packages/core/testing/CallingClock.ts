/**
 * A time of day for tests that place calls on a real server, so they pass whatever the hour they run at:
 * its server's clock is shifted (`CLOCK_OFFSET_SECONDS`, `ShiftedClock`) to read 11:00 UTC of the machine's
 * current (UTC) date when the test begins, and the numbers below are inside or outside calling hours
 * (08:00–21:00 local) for hours from then. Every server the test starts with the same setting agrees (an
 * offset, not an instant). The date stays the machine's, so what a test reads by it (this month's usage)
 * agrees with the server.
 */

/** 11:00 UTC of `now`'s UTC date. */
export const start = (now: Date = new Date()): Date =>
  new Date(`${now.toISOString().slice(0, 10)}T11:00:00.000Z`)

/** The server's environment: its clock reads `start(now)` at `now`, and runs on from there. */
export const env = (now: Date = new Date()): { readonly CLOCK_OFFSET_SECONDS: string } => ({
  CLOCK_OFFSET_SECONDS: String((start(now).getTime() - now.getTime()) / 1000)
})

/** Europe/Warsaw: 12:00 (13:00 in summer) at `start`, inside calling hours until 20:00 (19:00) UTC. */
export const inside = "+48500100200"

/** Prefix of more Warsaw numbers inside calling hours at `start` (six digits follow it). */
export const insidePrefix = "+48500"

/** America/New_York: 06:00 (07:00 in summer) at `start`, outside calling hours until 08:00 local. */
export const outside = "+12125551234"

/** When `outside` may be called, on the day of `start`: 08:00 New York time. */
export const outsideOpensAt = (now: Date = new Date()): Date => {
  const at = start(now)
  // New York is UTC-5 (06:00 at the start), or UTC-4 in summer (07:00): 08:00 there is 13:00 or 12:00 UTC
  const hour = Number(
    new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      hour: "numeric",
      hourCycle: "h23"
    }).format(at)
  )
  return new Date(at.getTime() + (8 - hour) * 3_600_000)
}
