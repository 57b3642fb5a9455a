import { InvalidCarrierSignature } from "@voice-agent-platform/core/voice/CarrierErrors.js"
import { Effect } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * Twilio's webhook signature, `X-Twilio-Signature`: base64 of HMAC-SHA1 under the account's auth token of
 * the full URL Twilio requested (scheme, host, path and query, exactly as configured) followed by each
 * POST parameter, sorted by name, as name then value. The URL must be the public one (built from
 * `PUBLIC_BASE_URL`), never what a proxy in front of the server makes of it.
 */

/** The header Twilio signs its requests with (Node gives header names in lower case). */
export const header = "x-twilio-signature"

/** The text that is signed: the URL, then every parameter's name and value, sorted by name (then value). */
export const signedText = (url: string, params: ReadonlyArray<readonly [string, string]>): string => {
  const sorted = [...params].sort(([nameA, valueA], [nameB, valueB]) =>
    nameA < nameB ? -1 : nameA > nameB ? 1 : valueA < valueB ? -1 : valueA > valueB ? 1 : 0
  )
  return url + sorted.map(([name, value]) => name + value).join("")
}

/** The signature of a request to `url` with form parameters `params`. */
export const sign = (
  authToken: string,
  url: string,
  params: ReadonlyArray<readonly [string, string]>
): string => createHmac("sha1", authToken).update(signedText(url, params), "utf8").digest("base64")

/** Whether `signature` is the request's, compared in constant time (a length mismatch aside). */
export const isValid = (
  authToken: string,
  url: string,
  params: ReadonlyArray<readonly [string, string]>,
  signature: string
): boolean => {
  const expected = Buffer.from(sign(authToken, url, params), "utf8")
  const given = Buffer.from(signature, "utf8")
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** Checks a webhook's signature header (null: the request had none). */
export const verify = (
  authToken: string,
  request: {
    readonly url: string
    readonly params: ReadonlyArray<readonly [string, string]>
    readonly signature: string | null
  }
): Effect.Effect<void, InvalidCarrierSignature> =>
  request.signature === null || request.signature === ""
    ? Effect.fail(new InvalidCarrierSignature({ reason: "missing" }))
    : isValid(authToken, request.url, request.params, request.signature)
      ? Effect.void
      : Effect.fail(new InvalidCarrierSignature({ reason: "mismatch" }))

/** A form body's parameters, in order (a name may repeat), as the signature covers them. */
export const formParams = (body: string): ReadonlyArray<readonly [string, string]> => [
  ...new URLSearchParams(body).entries()
]
