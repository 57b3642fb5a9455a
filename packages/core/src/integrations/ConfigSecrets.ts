/**
 * Secrets inside an integration connection's free-form `config`. A value is shown only when it is known
 * not to be secret (null, a boolean, or a plain value under a key that names public data such as an id,
 * a name or a URL without credentials); every other value reads back masked, and a client that sends the
 * mask back keeps the stored value. Masking by key name alone showed `"authorization": "Bearer …"`.
 */

/** What a secret value reads back as. */
export const mask = "****"

/** Compared with separators removed and lower-cased, so `api_key`, `apiKey` and `API-KEY` are one key. */
const compact = (key: string) => key.toLowerCase().replace(/[-_\s.]/g, "")

const secretWords = ["token", "secret", "password", "passwd", "apikey", "privatekey"]

/** True for a key that names a secret: it contains token, secret, password or api_key (any case or separator). */
export const isSecretKey = (key: string): boolean => {
  const word = compact(key)
  return secretWords.some((secret) => word.includes(secret))
}

// Keys whose values are public data: identifiers, names, addresses, settings. A key qualifies when its
// compact form is one of these or ends with one (`calendar_id`, `portalId`, `base_url`, `owner_email`).
const publicSuffixes = [
  "id",
  "ids",
  "name",
  "email",
  "url",
  "uri",
  "endpoint",
  "domain",
  "host",
  "region",
  "scope",
  "scopes",
  "timezone",
  "locale",
  "language",
  "version",
  "enabled",
  "type",
  "mode",
  "environment",
  "user",
  "username"
]

/** True for a key known to name public data (and not a secret): its plain values are shown. */
export const isPublicKey = (key: string): boolean => {
  if (isSecretKey(key)) return false
  const word = compact(key)
  return publicSuffixes.some((suffix) => word.endsWith(suffix))
}

/** A value that carries a credential whatever its key: an authorization scheme, or a URL with user info or a query. */
const looksLikeCredential = (value: string): boolean => {
  if (/^\s*(bearer|basic|token|digest|negotiate)\s/i.test(value)) return true
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  return url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== ""
}

type Json = unknown

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** True when a plain value under `key` may be shown as stored. */
const isShown = (key: string, value: Json): boolean =>
  value === null ||
  typeof value === "boolean" ||
  (isPublicKey(key) &&
    (typeof value === "number" || (typeof value === "string" && !looksLikeCredential(value))))

/** The value under `key` as the API shows it (an array's items are judged by the array's key). */
const maskUnder = (key: string, value: Json): Json => {
  if (value === null) return null
  if (isSecretKey(key)) return mask
  if (Array.isArray(value)) return value.map((item) => maskUnder(key, item))
  if (isObject(value)) return maskObject(value)
  return isShown(key, value) ? value : mask
}

const maskObject = (value: Record<string, Json>): Record<string, Json> =>
  Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskUnder(key, inner)]))

/**
 * The config as the API shows it: at any depth, null and booleans as they are; every value under a
 * secret key, and every string or number not under a public key (or that looks like a credential),
 * becomes `"****"`.
 */
export const masked = (config: Record<string, Json>): Record<string, Json> => maskObject(config)

/** True when the stored value under `key` reads back as exactly the mask. */
const readsAsMask = (key: string, stored: Json): boolean => maskUnder(key, stored) === mask

const keepUnder = (key: string, stored: Json, incoming: Json): Json => {
  if (incoming === mask && stored !== undefined && readsAsMask(key, stored)) return stored
  if (Array.isArray(incoming))
    return incoming.map((item, i) => keepUnder(key, Array.isArray(stored) ? stored[i] : undefined, item))
  if (isObject(incoming)) return keepObject(isObject(stored) ? stored : {}, incoming)
  return incoming
}

const keepObject = (stored: Record<string, Json>, incoming: Record<string, Json>): Record<string, Json> =>
  Object.fromEntries(
    Object.entries(incoming).map(([key, value]) => [
      key,
      keepUnder(key, Object.hasOwn(stored, key) ? stored[key] : undefined, value)
    ])
  )

/**
 * The config an update stores: the incoming one, except that a value that is exactly the mask, where the
 * stored value reads back as the mask, keeps the stored value, so a client can send back the config it
 * read without erasing secrets.
 */
export const carryOver = (
  stored: Record<string, Json>,
  incoming: Record<string, Json>
): Record<string, Json> => keepObject(stored, incoming)
