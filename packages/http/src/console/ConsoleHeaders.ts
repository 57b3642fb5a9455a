/**
 * What the console's pages may load: its own scripts, styles and images (and `data:` images), requests to
 * this origin only, no inline script or style, no `eval`, no plugin, no `<base>`, never in a frame.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
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
