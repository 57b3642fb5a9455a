import { HttpServerRequest } from "@effect/platform"
import { DownloadLinks } from "@voice-agent-platform/core"
import { Clock, Effect } from "effect"
import { linkOrigin } from "./PublicBaseUrl.js"

/** Where the files group serves signed downloads, under the API prefix. */
export const downloadPath = "/api/v1/files/download"

/** The lifetime of a link when the caller names none (seconds). */
export const defaultExpiresInSeconds = 3600

/** A signed, absolute download link and the instant it stops working. */
export interface DownloadUrl {
  readonly url: string
  readonly expires_at: Date
}

/** Signs a blob key for `expiresInSeconds` from now and makes it an absolute URL on the links' origin (`linkOrigin`). */
export const downloadUrl = (
  key: string,
  expiresInSeconds: number = defaultExpiresInSeconds
): Effect.Effect<DownloadUrl, never, DownloadLinks.LinkSigningKey | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const link = yield* DownloadLinks.sign(key, new Date(now + expiresInSeconds * 1000))
    return {
      url: `${yield* linkOrigin}${downloadPath}?${DownloadLinks.toQuery(link)}`,
      expires_at: DownloadLinks.expiresAt(link)
    }
  })
