import { parsePhoneNumberFromString } from "libphonenumber-js/max"
import { prefixesByZones } from "./TimeZonePrefixes.js"

/**
 * Known errors in libphonenumber's map, applied on top of the generated data (so a regeneration keeps
 * them): Kaliningrad (+7 401) is listed as Europe/Bucharest and Saratov (+7 845) as Europe/Moscow, which
 * would let calls land at 07:00 or 21:00 local time.
 */
export const corrections: Readonly<Record<string, string>> = {
  "7401": "Europe/Kaliningrad",
  "7845": "Europe/Saratov"
}

interface Index {
  readonly zonesByPrefix: ReadonlyMap<string, ReadonlyArray<string>>
  /** Listed prefixes in code-unit order: every prefix extending `p` sits in one run starting at `p`. */
  readonly sortedPrefixes: ReadonlyArray<string>
  readonly subtrees: Map<string, ReadonlyArray<string>>
}

let index: Index | undefined

// Built on first use (a few ms), then every lookup is a map hit or one binary search.
const getIndex = (): Index => {
  if (index !== undefined) return index
  const zonesByPrefix = new Map<string, ReadonlyArray<string>>()
  for (const [zones, prefixes] of Object.entries(prefixesByZones)) {
    const list = zones.split("&")
    for (const prefix of prefixes.split(" ")) zonesByPrefix.set(prefix, list)
  }
  for (const [prefix, zone] of Object.entries(corrections)) zonesByPrefix.set(prefix, [zone])
  const sortedPrefixes = [...zonesByPrefix.keys()].sort()
  index = { zonesByPrefix, sortedPrefixes, subtrees: new Map() }
  return index
}

const lowerBound = (sorted: ReadonlyArray<string>, value: string): number => {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sorted[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}

/** Every listed E.164 prefix (corrections included), in code-unit order. */
export const listedPrefixes = (): ReadonlyArray<string> => getIndex().sortedPrefixes

/** The union of the zones of every listed prefix that starts with `prefix` (sorted, unique; may be empty). */
export const forPrefix = (prefix: string): ReadonlyArray<string> => {
  const { sortedPrefixes, subtrees, zonesByPrefix } = getIndex()
  const cached = subtrees.get(prefix)
  if (cached !== undefined) return cached
  const zones = new Set<string>()
  for (let i = lowerBound(sortedPrefixes, prefix); i < sortedPrefixes.length; i++) {
    const listed = sortedPrefixes[i]!
    if (!listed.startsWith(prefix)) break
    for (const zone of zonesByPrefix.get(listed)!) zones.add(zone)
  }
  const result = [...zones].sort()
  // Bounded: callers only ask for listed prefixes, country codes and North American area codes.
  subtrees.set(prefix, result)
  return result
}

const longestListedPrefix = (digits: string, shortest: number): string | undefined => {
  const { zonesByPrefix } = getIndex()
  for (let length = Math.min(digits.length, 9); length >= shortest; length--) {
    const prefix = digits.slice(0, length)
    if (zonesByPrefix.has(prefix)) return prefix
  }
  return undefined
}

// Country codes are 1-3 digits and prefix-free, and every geographic one is listed: the shortest listed
// prefix of the digits is the country's.
const countryZonesOfDigits = (digits: string): ReadonlyArray<string> => {
  const { zonesByPrefix } = getIndex()
  for (let length = 1; length <= Math.min(3, digits.length); length++) {
    const prefix = digits.slice(0, length)
    if (zonesByPrefix.has(prefix)) return forPrefix(prefix)
  }
  return []
}

/**
 * Every IANA zone the number can be in (sorted, unique). Only fixed lines are geographic: every zone under
 * the longest listed prefix (North America: under the area code unless the exact exchange is listed);
 * any other type takes every zone of its country. Empty only when there is no country to go by:
 * non-geographic calling codes (+800, +808, +870, +878, +881, +882, +883, +888, +979) or unparseable input.
 */
export const forNumber = (e164: string): ReadonlyArray<string> => {
  const parsed = parsePhoneNumberFromString(e164)
  if (parsed === undefined) return countryZonesOfDigits(e164.replace(/\D/g, ""))
  const callingCode: string = parsed.countryCallingCode
  const country = forPrefix(callingCode)
  const type = parsed.getType()
  if (type !== "FIXED_LINE" && type !== "FIXED_LINE_OR_MOBILE") return country
  const digits = callingCode + parsed.nationalNumber
  const listed = longestListedPrefix(digits, callingCode.length)
  if (listed === undefined) return country
  // North America: the map lists an area code's main zone and the exchanges that differ; an exchange
  // it does not list may be in any zone the area code spans.
  const zones = callingCode === "1" && listed.length < 7 ? forPrefix(digits.slice(0, 4)) : forPrefix(listed)
  return zones.length > 0 ? zones : country
}
