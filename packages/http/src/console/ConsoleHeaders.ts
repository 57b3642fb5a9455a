/**
 * What the console's pages may load: its own scripts, styles and images (and `data:` images), requests to
 * this origin only, no inline script or style, no `eval`, no plugin, no `<base>`, never in a frame. Media
 * may also play from `blob:` addresses: a run's recording is fetched (with the key, from this origin) and
 * played from memory, as an `<audio>` element can neither send the key nor seek in a download that answers
 * no byte ranges. A `blob:` address is made by the page itself from bytes it already holds.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** The headers of every answer under /console: the policy, no type sniffing, no referrer sent anywhere. */
export const securityHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

/** Hashed assets never change under their name: kept a year by browsers and caches. */
export const assetCacheControl = "public, max-age=31536000, immutable"

/** The page naming the assets is asked again each time (it names the new assets after an upgrade). */
export const pageCacheControl = "no-cache"
