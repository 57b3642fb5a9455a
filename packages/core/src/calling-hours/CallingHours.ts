import { Cause, Data, DateTime, Schema } from "effect"
import { NoCallingWindow } from "./CallingHoursErrors.js"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
// Every candidate set in the data has a window each day; a week and a day covers any DST shift.
const SEARCH_LIMIT = 8 * DAY

/** A daily calling window in local minutes of the day, `[opensAt, closesAt)`; it cannot span midnight. */
export const Window = Schema.Struct({
  opensAt: Schema.Int.pipe(Schema.between(0, 24 * 60 - 1)),
  closesAt: Schema.Int.pipe(Schema.between(1, 24 * 60))
}).pipe(Schema.filter((window) => window.opensAt < window.closesAt || "opensAt must be before closesAt"))

/** A daily calling window in local minutes of the day, `[opensAt, closesAt)`. */
export type Window = typeof Window.Type

/** The contract's window: `[08:00, 21:00)` local time. */
export const defaultWindow: Window = { opensAt: 8 * 60, closesAt: 21 * 60 }

/** The answer of `check`: allowed now, or refused with the earliest instant at which it is allowed. */
export type Decision = Data.TaggedEnum<{
  Allowed: {}
  OutsideCallingHours: { readonly retryAt: Date; readonly retryAfterSeconds: number }
}>

/** Constructors and matchers of `Decision`. */
export const Decision = Data.taggedEnum<Decision>()

interface DayOffsets {
  readonly before: number
  /** The first instant of the day with the `after` offset; `Infinity` when the day has no change. */
  readonly changeAt: number
  readonly after: number
}

interface Zone {
  readonly named: DateTime.TimeZone.Named
  /** By UTC day number: an offset change is found once, then each offset is arithmetic, not Intl. */
  readonly days: Map<number, DayOffsets>
}

// Bounds the cache: requests ask about days around now, so older days can go.
const MAX_CACHED_DAYS = 64

// Effect caches zones by their canonical id only, so an alias (Africa/Asmera) would build a new
// Intl formatter on every call: keep one zone per name as given.
const zoneCache = new Map<string, Zone>()

const zoneOf = (name: string): Zone => {
  let zone = zoneCache.get(name)
  if (zone === undefined) {
    zone = { named: DateTime.zoneUnsafeMakeNamed(name), days: new Map() }
    zoneCache.set(name, zone)
  }
  return zone
}

const intlOffset = (zone: DateTime.TimeZone.Named, epochMillis: number): number =>
  DateTime.zonedOffset(DateTime.unsafeMakeZoned(epochMillis, { timeZone: zone }))

// The first instant in (from, to] whose offset differs from `offset`, given that `to`'s does and that
// the zone changes offset at most once in the interval (a day; zones change offset weeks apart).
// About 27 Intl calls, once per zone and change: the result is cached with the day.
const firstOffsetChange = (
  zone: DateTime.TimeZone.Named,
  from: number,
  to: number,
  offset: number
): number => {
  let low = from
  let high = to
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2)
    if (intlOffset(zone, middle) === offset) low = middle
    else high = middle
  }
  return high
}

const dayOffsets = (zone: Zone, day: number): DayOffsets => {
  let entry = zone.days.get(day)
  if (entry === undefined) {
    if (zone.days.size >= MAX_CACHED_DAYS) zone.days.clear()
    const start = day * DAY
    const before = zone.days.get(day - 1)?.after ?? intlOffset(zone.named, start)
    const after = zone.days.get(day + 1)?.before ?? intlOffset(zone.named, start + DAY)
    const changeAt = before === after ? Infinity : firstOffsetChange(zone.named, start, start + DAY, before)
    entry = { before, changeAt, after }
    zone.days.set(day, entry)
  }
  return entry
}

const offsetAt = (zone: Zone, epochMillis: number): number => {
  const entry = dayOffsets(zone, Math.floor(epochMillis / DAY))
  return epochMillis < entry.changeAt ? entry.before : entry.after
}

// The first offset change in (from, to], if any.
const nextOffsetChange = (zone: Zone, from: number, to: number): number | undefined => {
  for (let day = Math.floor(from / DAY); day <= Math.floor(to / DAY); day++) {
    const { changeAt } = dayOffsets(zone, day)
    if (changeAt > from && changeAt <= to) return changeAt
  }
  return undefined
}

const msOfDay = (localMillis: number): number => ((localMillis % DAY) + DAY) % DAY

const isInside = (localMsOfDay: number, window: Window): boolean =>
  localMsOfDay >= window.opensAt * MINUTE && localMsOfDay < window.closesAt * MINUTE

const validated = (window: Window): Window => {
  if (window !== defaultWindow && !Schema.is(Window)(window)) {
    throw new Cause.IllegalArgumentException(`Invalid calling window: ${JSON.stringify(window)}`)
  }
  return window
}

const epochMillisOf = (date: Date): number => {
  const epochMillis = date.getTime()
  if (Number.isNaN(epochMillis)) throw new Cause.IllegalArgumentException("Invalid Date")
  return epochMillis
}

/**
 * The earliest instant at or after `from` (epoch ms) at which every zone's local time is inside the window.
 * Each round skips to the latest instant before which some zone is provably outside: its next local
 * opening at its current offset, or its next offset change if that comes first. Exact to the millisecond.
 */
const nextAllowed = (names: ReadonlyArray<string>, from: number, window: Window): number => {
  const candidates = names.map(zoneOf)
  const opensAt = window.opensAt * MINUTE
  let instant = from
  while (instant - from <= SEARCH_LIMIT) {
    let next = instant
    for (const zone of candidates) {
      const local = msOfDay(instant + offsetAt(zone, instant))
      if (isInside(local, window)) continue
      const opening = instant + msOfDay(opensAt - local)
      const reach = nextOffsetChange(zone, instant, opening) ?? opening
      if (reach > next) next = reach
    }
    if (next === instant) return instant
    instant = next
  }
  throw new NoCallingWindow({ zones: names, from: new Date(from) })
}

/** Whether every zone's local time at `instant` is inside the window (vacuously true for no zones). */
export const isAllowedAt = (
  zones: ReadonlyArray<string>,
  instant: Date,
  window: Window = defaultWindow
): boolean => {
  const checked = validated(window)
  const epochMillis = epochMillisOf(instant)
  return zones.every((name) => isInside(msOfDay(epochMillis + offsetAt(zoneOf(name), epochMillis)), checked))
}

/**
 * Whether a call may be placed at `now` to a number whose candidate zones are `zones`; if not, the
 * earliest instant it may, and the seconds to it rounded up (for `Retry-After`). No zones (a number
 * without a geographic country, e.g. +800) means no local time restricts the call: allowed.
 */
export const check = (zones: ReadonlyArray<string>, now: Date, window: Window = defaultWindow): Decision => {
  const checked = validated(window)
  const from = epochMillisOf(now)
  if (zones.length === 0) return Decision.Allowed()
  const retryAt = nextAllowed(zones, from, checked)
  if (retryAt === from) return Decision.Allowed()
  return Decision.OutsideCallingHours({
    retryAt: new Date(retryAt),
    retryAfterSeconds: Math.ceil((retryAt - from) / 1000)
  })
}
