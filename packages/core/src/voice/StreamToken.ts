import { Effect } from "effect"
import * as HmacSignatures from "../signing/HmacSignatures.js"
import { StreamTokenRefused } from "./LiveCallErrors.js"

/**
 * The capability in a run's media socket path (`/telephony/twilio/stream/{workflow_run_id}/{token}`):
 * carriers strip query strings, so the path carries it. A token names one run and an expiry instant
 * (whole Unix seconds) and carries an HMAC-SHA256 of both under the deployment's secret, so any server
 * sharing the secret can check it without a lookup, nobody can forge one, move it to another run or
 * stretch its life, and it stops working when it expires.
 *
 * Form: `<expires>.<signature>`, the signature base64url without padding over `stream\n<run>\n<expires>`
 * (digits only on both sides, so the message is unambiguous). Only path-safe characters.
 */

/** The shortest secret accepted: HMAC-SHA256 is weakened by a shorter one. */
export const minimumSecretBytes = 32

const checkedSecret = (secret: Uint8Array): Effect.Effect<Uint8Array> =>
  secret.length < minimumSecretBytes
    ? Effect.dieMessage(`the stream token secret has ${secret.length} bytes; it needs ${minimumSecretBytes}`)
    : Effect.succeed(secret)

const signatureOf = (runId: number, expires: number, secret: Uint8Array): Effect.Effect<string> =>
  Effect.flatMap(checkedSecret(secret), (checked) =>
    Effect.promise(() => HmacSignatures.sign(checked, `stream\n${runId}\n${expires}`))
  )

/**
 * A token for `runId`'s media socket until `expiresAt` (rounded down to the second, so it never outlives
 * what was asked). `secret` must have at least `minimumSecretBytes` bytes (a shorter one is a defect of
 * the configuration, refused at once).
 */
export const make = (runId: number, expiresAt: Date, secret: Uint8Array): Effect.Effect<string> => {
  const expires = Math.floor(expiresAt.getTime() / 1000)
  return Effect.map(signatureOf(runId, expires, secret), (signature) => `${expires}.${signature}`)
}

// Canonical forms only: "017" or "+17" would name the same instant with other characters.
const tokenPattern = /^(0|[1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/

/** Checks `token` for `runId` at `now`: the signature (compared in constant time), then the expiry. */
export const verify = (
  token: string,
  runId: number,
  now: Date,
  secret: Uint8Array
): Effect.Effect<void, StreamTokenRefused> =>
  Effect.gen(function* () {
    const parts = tokenPattern.exec(token)
    if (parts === null || !Number.isSafeInteger(runId) || runId <= 0) {
      return yield* new StreamTokenRefused({ reason: "malformed" })
    }
    const expires = Number(parts[1])
    const expected = yield* signatureOf(runId, expires, secret)
    if (!HmacSignatures.constantTimeEqual(expected, parts[2]!)) {
      return yield* new StreamTokenRefused({ reason: "bad_signature" })
    }
    if (now.getTime() >= expires * 1000) return yield* new StreamTokenRefused({ reason: "expired" })
  })
