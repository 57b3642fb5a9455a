import { Effect } from "effect"

/**
 * Standard Webhooks signing: `webhook-signature` is `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed with the base64 bytes after `whsec_`; several signatures (key rotation) are space-separated.
 * Web Crypto is asynchronous, so the rules answer effects; they still read no clock and no state.
 */

/** How far a `webhook-timestamp` may be from the receiver's clock: five minutes either way. */
export const toleranceSeconds = 5 * 60

const secretPrefix = "whsec_"

/** A new secret from random key bytes (24 or more). */
export const secretFromBytes = (bytes: Uint8Array): string => secretPrefix + toBase64(bytes)

/** The key bytes of a `whsec_` secret (a bare base64 secret is accepted too). */
export const keyBytes = (secret: string): Uint8Array =>
  fromBase64(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret)

const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** The base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's key. */
const mac = (secret: string, id: string, timestamp: number, body: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const key = await globalThis.crypto.subtle.importKey(
      "raw",
      keyBytes(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"]
    )
    const message = new TextEncoder().encode(`${id}.${timestamp}.${body}`)
    return toBase64(new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, message)))
  })

/** The `webhook-signature` value for one message: `v1,<base64>`. */
export const sign = (secret: string, id: string, timestamp: number, body: string): Effect.Effect<string> =>
  Effect.map(mac(secret, id, timestamp, body), (signature) => `v1,${signature}`)

/** Compares two strings in time that depends on their length only, never on where they differ. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  const x = new TextEncoder().encode(a)
  const y = new TextEncoder().encode(b)
  let difference = x.length ^ y.length
  for (let i = 0; i < Math.max(x.length, y.length); i++) difference |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return difference === 0
}

/** The three Standard Webhooks headers, as received. */
export interface SignedHeaders {
  readonly id: string
  readonly timestamp: string
  readonly signature: string
}

/** Why a message was refused, or that it is genuine. */
export type Verification =
  | { readonly _tag: "Valid" }
  | { readonly _tag: "InvalidTimestamp" }
  | { readonly _tag: "TimestampOutOfTolerance" }
  | { readonly _tag: "NoMatchingSignature" }

/**
 * Checks a received message: the timestamp is whole Unix seconds within `toleranceSeconds` of `now`, and
 * one of the space-separated `v1,` signatures matches (compared in constant time).
 */
export const verify = (
  secret: string,
  headers: SignedHeaders,
  body: string,
  now: Date
): Effect.Effect<Verification> =>
  Effect.gen(function* () {
    if (!/^\d{1,15}$/.test(headers.timestamp)) return { _tag: "InvalidTimestamp" } as const
    const timestamp = Number(headers.timestamp)
    if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) {
      return { _tag: "TimestampOutOfTolerance" } as const
    }
    const expected = yield* mac(secret, headers.id, timestamp, body)
    const matches = headers.signature
      .split(" ")
      .filter((candidate) => candidate.startsWith("v1,"))
      .some((candidate) => constantTimeEqual(candidate.slice(3), expected))
    return matches ? ({ _tag: "Valid" } as const) : ({ _tag: "NoMatchingSignature" } as const)
  })
