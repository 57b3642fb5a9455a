import { Schema } from "effect"

/** An instant on the wire: ISO 8601 with a timezone (`2026-03-01T12:00:00.000Z`). */
export const Timestamp = Schema.Date.annotations({
  jsonSchema: { type: "string", format: "date-time" },
  description: "ISO 8601 timestamp"
})

const isoInstant =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i

/** True for a real calendar date-time: `Date` alone would read 30 February as 2 March. */
export const isRealInstant = (text: string): boolean => {
  const match = isoInstant.exec(text)
  if (match === null) return false
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match
    .slice(1)
    .map((part) => Number(part ?? "0")) as [number, number, number, number, number, number, number, number]
  const probe = new Date(Date.UTC(year, month - 1, day))
  return (
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHour < 24 &&
    offsetMinute < 60
  )
}

/** An instant in a query: ISO 8601 with a timezone (`Z` or `+01:00`, the `+` sent as `%2B`). */
export const InstantParam = Schema.String.pipe(
  Schema.filter(isRealInstant, {
    message: () => "expected an ISO 8601 date-time with a timezone, e.g. 2026-03-01T00:00:00Z"
  }),
  Schema.compose(Schema.DateFromString)
).annotations({ jsonSchema: { type: "string", format: "date-time" } })
