import { Context, Effect, Layer } from "effect"
import { SecureRandom } from "../randomness/SecureRandom.js"
import * as HmacSignatures from "../signing/HmacSignatures.js"
import { LinkSigningSecretTooShort, DownloadLinkRefused } from "./FileErrors.js"

/**
 * Signed, expiring download links. A link names a blob key and an expiry instant (whole Unix seconds)
 * and carries an HMAC-SHA256 of both, so the link itself is the credential: no API key is needed to
 * follow it, nobody can forge one or stretch its lifetime, and it stops working when it expires.
 *
 * The signed message is `v1\n<expires>\n<key>`: `expires` is digits only, so the message is unambiguous
 * whatever the key contains.
 */

/**
 * The secret that signs download links. Every server that shares a database must share this secret:
 * a link signed by one server is refused (403) by another that has a different one. The random default
 * (`layerRandom`) is only right for a single process, and its links die with a restart.
 */
export class LinkSigningKey extends Context.Tag("@voice-agent-platform/core/LinkSigningKey")<
  LinkSigningKey,
  { readonly secret: Uint8Array }
>() {}

/** The shortest secret accepted: HMAC-SHA256 gains nothing from a longer one and is weakened by a shorter one. */
export const minimumSecretBytes = 32

/** The key from a configured secret (text is taken as UTF-8); at least `minimumSecretBytes` bytes. */
export const layer = (
  secret: Uint8Array | string
): Layer.Layer<LinkSigningKey, LinkSigningSecretTooShort> => {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret.slice()
  return bytes.length < minimumSecretBytes
    ? Layer.fail(new LinkSigningSecretTooShort({ bytes: bytes.length, minimum: minimumSecretBytes }))
    : Layer.succeed(LinkSigningKey, { secret: bytes })
}

/**
 * A fresh random secret for this process. Fine for one server and for tests; servers that share a
 * database must configure one shared secret with `layer` instead.
 */
export const layerRandom: Layer.Layer<LinkSigningKey, never, SecureRandom> = Layer.effect(
  LinkSigningKey,
  Effect.map(
    Effect.flatMap(SecureRandom, (random) => random.bytes(minimumSecretBytes)),
    (secret) => ({ secret })
  )
)

/** A signed link's parts: the blob key, the expiry in whole Unix seconds, and the base64url signature. */
export interface SignedLink {
  readonly key: string
  readonly expires: number
  readonly signature: string
}

const signatureOf = (key: string, expires: number): Effect.Effect<string, never, LinkSigningKey> =>
  Effect.flatMap(LinkSigningKey, ({ secret }) =>
    Effect.promise(() => HmacSignatures.sign(secret, `v1\n${expires}\n${key}`))
  )

/** The link's expiry as whole Unix seconds: an instant is rounded down, so a link never outlives what was asked. */
export const expiresOf = (expiresAt: Date): number => Math.floor(expiresAt.getTime() / 1000)

/** The instant a link stops working. */
export const expiresAt = (link: Pick<SignedLink, "expires">): Date => new Date(link.expires * 1000)

/** Signs a blob key until `expiresAt` (rounded down to the second). */
export const sign = (key: string, expiresAt: Date): Effect.Effect<SignedLink, never, LinkSigningKey> => {
  const expires = expiresOf(expiresAt)
  return Effect.map(signatureOf(key, expires), (signature) => ({ key, expires, signature }))
}

/** The link's query string: `key=<key>&expires=<seconds>&signature=<base64url>`. */
export const toQuery = (link: SignedLink): string =>
  `key=${encodeURIComponent(link.key)}&expires=${link.expires}&signature=${link.signature}`

/** The parts of a link as they arrive (query parameters); any may be missing. */
export interface LinkParts {
  readonly key?: string | undefined
  readonly expires?: string | undefined
  readonly signature?: string | undefined
}

// Canonical forms only: "017" or "+17" would name the same number with other characters.
const expiresPattern = /^(0|[1-9][0-9]{0,14})$/
const signaturePattern = /^[A-Za-z0-9_-]{43}$/
// A lone surrogate would be signed as U+FFFD, so two different keys could share a signature.
const loneSurrogate = /\p{Cs}/u

/**
 * Checks a link at `now`: the signature must match its key and expiry (compared in constant time), and
 * `now` must be before the expiry. Answers the blob key it grants.
 */
export const verify = (
  parts: LinkParts,
  now: Date
): Effect.Effect<string, DownloadLinkRefused, LinkSigningKey> =>
  Effect.gen(function* () {
    const { expires, key, signature } = parts
    if (
      key === undefined ||
      expires === undefined ||
      signature === undefined ||
      loneSurrogate.test(key) ||
      !expiresPattern.test(expires) ||
      !signaturePattern.test(signature)
    ) {
      return yield* new DownloadLinkRefused({ reason: "malformed" })
    }
    const expected = yield* signatureOf(key, Number(expires))
    if (!HmacSignatures.constantTimeEqual(expected, signature)) {
      return yield* new DownloadLinkRefused({ reason: "bad_signature" })
    }
    if (now.getTime() >= Number(expires) * 1000) {
      return yield* new DownloadLinkRefused({ reason: "expired" })
    }
    return key
  })
