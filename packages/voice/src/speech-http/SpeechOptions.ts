import { Config, Data, Option, Redacted } from "effect"

/** The bounds and checks both speech adapters share. */

/** Options that cannot work: a base URL that is not an http(s) URL without credentials, a bound out of range. */
export class InvalidOptions extends Data.TaggedError("InvalidOptions")<{ readonly reason: string }> {
  override get message() {
    return `Invalid text-to-speech options: ${this.reason}`
  }
}

/** Every adapter's bounds: deadlines and the reply's size cap. */
export interface Bounds {
  /** No audio byte within this many milliseconds fails with `SpeechDeadline` (`first_byte`). Default 10000. */
  readonly firstByteTimeoutMs?: number
  /** The audio not ended within this many milliseconds fails with `SpeechDeadline` (`overall`). Default 120000. */
  readonly timeoutMs?: number
  /** The most audio bytes read for one text. Default 32 MiB (over 10 minutes at 24 kHz). */
  readonly maxResponseBytes?: number
}

export const boundDefaults = {
  firstByteTimeoutMs: 10_000,
  timeoutMs: 120_000,
  maxResponseBytes: 32 * 1024 * 1024
} as const

/** The longest deadline accepted, in milliseconds (10 minutes). */
export const maxTimeoutMs = 600_000

const isWholeIn = (value: number, min: number, max: number) =>
  Number.isInteger(value) && value >= min && value <= max

/** Whether `value` is an http(s) URL without credentials, query or fragment (a base URL to append paths to). */
export const isBaseUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === "" &&
      url.search === "" &&
      url.hash === ""
    )
  } catch {
    return false
  }
}

/** The bounds with their defaults, or why they cannot work. */
export const checkedBounds = (bounds: Bounds): Required<Bounds> | InvalidOptions => {
  const firstByteTimeoutMs = bounds.firstByteTimeoutMs ?? boundDefaults.firstByteTimeoutMs
  const timeoutMs = bounds.timeoutMs ?? boundDefaults.timeoutMs
  const maxResponseBytes = bounds.maxResponseBytes ?? boundDefaults.maxResponseBytes
  if (!isWholeIn(firstByteTimeoutMs, 1, maxTimeoutMs) || !isWholeIn(timeoutMs, 1, maxTimeoutMs)) {
    return new InvalidOptions({
      reason: `deadlines must be whole numbers of milliseconds from 1 to ${maxTimeoutMs}`
    })
  }
  if (!isWholeIn(maxResponseBytes, 1024, 1024 ** 3)) {
    return new InvalidOptions({ reason: "maxResponseBytes must be a whole number from 1024 to 1 GiB" })
  }
  return { firstByteTimeoutMs, timeoutMs, maxResponseBytes }
}

/** An http(s) base URL from the environment, with a default, the message naming the variable. */
export const baseUrlConfig = (name: string, fallback: string) =>
  Config.nonEmptyString(name).pipe(
    Config.withDefault(fallback),
    Config.validate({
      message: `${name} must be an http(s) URL without credentials, e.g. http://127.0.0.1:8080/v1`,
      validation: isBaseUrl
    })
  )

/** A key from the environment; unset or empty: none. */
export const keyConfig = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.filter((key) => Redacted.value(key) !== "")),
    Config.map(Option.getOrUndefined)
  )

/** The URL without trailing slashes, to append a path to. */
export const trimmed = (baseUrl: string) => baseUrl.replace(/\/+$/, "")
