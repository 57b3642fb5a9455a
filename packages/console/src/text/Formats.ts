// How values from the API are shown. Everything here answers plain strings: the console renders user data
// as text nodes only (Preact escapes them), never as markup.

const dateTime = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short"
})

/** A timestamp of the API (ISO 8601) as a date and time in UTC, e.g. `27 Nov 2026, 12:10 UTC`; `—` for none. */
export const formatDateTime = (iso: string | null | undefined): string => {
  if (iso === null || iso === undefined) return "—"
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

/** An amount in złoty with its two decimals, e.g. `12.50 PLN`; `—` for none. */
export const formatMoney = (amount: number | null | undefined, currency = "PLN"): string =>
  amount === null || amount === undefined ? "—" : `${amount.toFixed(2)} ${currency}`

/** A duration in seconds as minutes and seconds, e.g. `1 min 5 s`; `—` for none. */
export const formatDuration = (seconds: number | null | undefined): string => {
  if (seconds === null || seconds === undefined) return "—"
  const whole = Math.max(0, Math.round(seconds))
  const minutes = Math.floor(whole / 60)
  const rest = whole % 60
  return minutes === 0 ? `${rest} s` : rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`
}

/** Seconds as minutes with one decimal at most, e.g. `12.5` (usage is counted in minutes). */
export const formatMinutes = (seconds: number): string => {
  const minutes = Math.round((seconds / 60) * 10) / 10
  return minutes.toLocaleString("en-GB", { maximumFractionDigits: 1 })
}

/** A count with thousands separated, e.g. `12,345`. */
export const formatCount = (count: number): string => count.toLocaleString("en-GB")

/**
 * Any value of a free-form JSON field (gathered data, context, codes) as one line of text: strings as they
 * are, other values as JSON; `—` for null or nothing.
 */
export const textOf = (value: unknown): string => {
  if (value === null || value === undefined) return "—"
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

/** A status of the API (`in_progress`) as words (`in progress`). */
export const formatStatus = (status: string): string => status.replace(/_/g, " ")
