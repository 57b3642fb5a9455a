/**
 * A provider's answer headers, as the adapters over HTTP read them (the language model's, speech
 * synthesis'): names case-insensitive, repeated values joined, as `fetch`'s `Headers.get` reads them. And
 * how long a rate-limited client should wait, as providers say it: OpenAI's `retry-after-ms`
 * (milliseconds, fractions allowed), else the standard `Retry-After` (RFC 9110: whole seconds, or an HTTP
 * date). Decimal seconds are accepted too, as some servers send them.
 */

export interface HeaderReader {
  readonly get: (name: string) => string | null
}

/** The reader of headers as Node's clients give them (undici's `request`, node:http): lowercase names. */
export const headerReader = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): HeaderReader => ({
  get: (name) => {
    const value = headers[name.toLowerCase()]
    return value === undefined ? null : typeof value === "string" ? value : value.join(", ")
  }
})

/** The delay in milliseconds (rounded up, never negative), or null when the headers give none that is valid. */
export const retryAfterMs = (headers: HeaderReader, now: number): number | null => {
  const milliseconds = headers.get("retry-after-ms")?.trim()
  if (milliseconds !== undefined && /^\d{1,15}(\.\d+)?$/.test(milliseconds)) {
    return Math.ceil(Number(milliseconds))
  }
  const value = headers.get("retry-after")?.trim()
  if (value === undefined || value === "") return null
  if (/^\d{1,12}(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000)
  // an HTTP date has letters (a weekday, a month): a bare or signed number is not one
  if (!/[a-z]/i.test(value)) return null
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil(date - now))
}
