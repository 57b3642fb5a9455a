import { Effect } from "effect"

/** What identifies a request for idempotency: where it went and what it carried. */
export interface FingerprintedRequest {
  readonly method: string
  /** The route template, e.g. `/agents/:agent_id/calls`: the same key on another route is another request. */
  readonly route: string
  readonly path: Readonly<Record<string, unknown>>
  readonly body: unknown
}

const hasToJson = (value: object): value is { toJSON: () => unknown } =>
  typeof (value as { toJSON?: unknown }).toJSON === "function"

/** JSON.stringify drops these as object members and writes them as null in arrays. */
const isOmitted = (value: unknown) =>
  value === undefined || typeof value === "function" || typeof value === "symbol"

/**
 * JSON with object keys sorted (by UTF-16 code units) and no whitespace, so that two bodies that mean the
 * same are the same text whatever order their fields came in. Values are read as `JSON.stringify` reads
 * them (`toJSON`, undefined members dropped, non-finite numbers as null).
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") {
    return isOmitted(value) ? "null" : typeof value === "bigint" ? String(value) : JSON.stringify(value)
  }
  if (hasToJson(value)) return canonicalJson(value.toJSON())
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isOmitted(item) ? "null" : canonicalJson(item))).join(",")}]`
  }
  const record = value as Record<string, unknown>
  const members = Object.keys(record)
    .filter((key) => !isOmitted(record[key]))
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
  return `{${members.join(",")}}`
}

/** Lower-case hex SHA-256 (Web Crypto) of the request's method, route, path parameters and canonical body. */
export const fingerprint = (request: FingerprintedRequest): Effect.Effect<string> => {
  const text = canonicalJson([request.method.toUpperCase(), request.route, request.path, request.body])
  return Effect.promise(() =>
    globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))
  ).pipe(
    Effect.map((digest) =>
      Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
    )
  )
}
