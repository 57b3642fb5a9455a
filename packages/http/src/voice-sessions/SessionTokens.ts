import type { HttpServerRequest } from "@effect/platform"
import { DownloadLinks, StreamToken } from "@voice-agent-platform/core"
import { Clock, Effect } from "effect"
import { createHmac } from "node:crypto"
import { linkOrigin } from "../files/PublicBaseUrl.js"

/**
 * The capability of a browser voice session's socket (`mode: webrtc`): a `StreamToken` for the run in the
 * socket's path, `/voice/sessions/{run}/{token}`, valid `lifetimeSeconds` to open the socket. Its secret is
 * derived from the download links' signing key (`LINK_SIGNING_SECRET`, the same on every server behind
 * the address, so the socket may land on any of them) under its own label: a token of one kind is never
 * the other's. The URL is on the links' origin (`linkOrigin`), `ws` for `http`, `wss` for `https`.
 */

/** How long a session's token opens its socket. */
export const lifetimeSeconds = 120

/** The path prefix of the sessions' sockets. */
export const pathPrefix = "/voice/sessions/"

const label = "voice-agent-platform browser voice session tokens v1"

/** The tokens' secret (32 bytes), derived from the links' signing key. */
export const secretOf = (linkKey: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac("sha256", linkKey).update(label).digest())

export interface Session {
  readonly url: string
  readonly token: string
  readonly expires_at: Date
}

/** A fresh session capability for `runId`. */
export const issue = (
  runId: number
): Effect.Effect<Session, never, DownloadLinks.LinkSigningKey | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const { secret } = yield* DownloadLinks.LinkSigningKey
    const now = yield* Clock.currentTimeMillis
    // whole seconds: the token's expiry is rounded down to one
    const expiresAt = new Date(Math.floor(now / 1000) * 1000 + lifetimeSeconds * 1000)
    const token = yield* StreamToken.make(runId, expiresAt, secretOf(secret))
    const origin = (yield* linkOrigin).replace(/^http/, "ws")
    return { url: `${origin}${pathPrefix}${runId}/${token}`, token, expires_at: expiresAt }
  })
