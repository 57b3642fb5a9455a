/**
 * Secrets inside an integration connection's free-form `config`: recognised by their key, shown masked,
 * and kept when a client sends the mask back.
 */

/** What a secret value reads back as. */
export const mask = "****"

// Compared with separators removed, so `api_key`, `apiKey`, `API-KEY` and `apikey` all match.
const secretWords = ["token", "secret", "password", "passwd", "apikey", "privatekey"]

/** True for a key that names a secret: it contains token, secret, password or api_key (any case or separator). */
export const isSecretKey = (key: string): boolean => {
  const compact = key.toLowerCase().replace(/[-_\s.]/g, "")
  return secretWords.some((word) => compact.includes(word))
}

type Json = unknown

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const maskValue = (value: Json): Json => (value === null ? null : mask)

const maskDeep = (value: Json): Json =>
  Array.isArray(value)
    ? value.map(maskDeep)
    : isObject(value)
      ? Object.fromEntries(
          Object.entries(value).map(([key, inner]) => [
            key,
            isSecretKey(key) ? maskValue(inner) : maskDeep(inner)
          ])
        )
      : value

/**
 * The config as the API shows it: every non-null value under a secret key, at any depth, becomes
 * `"****"` (a nested object under such a key too); null stays null, so "not set" remains visible.
 */
export const masked = (config: Record<string, Json>): Record<string, Json> =>
  maskDeep(config) as Record<string, Json>

const keepDeep = (stored: Json, incoming: Json): Json => {
  if (Array.isArray(incoming))
    return incoming.map((item, i) => keepDeep(Array.isArray(stored) ? stored[i] : undefined, item))
  if (!isObject(incoming)) return incoming
  const previous = isObject(stored) ? stored : {}
  return Object.fromEntries(
    Object.entries(incoming).map(([key, value]) => [
      key,
      isSecretKey(key) && value === mask && key in previous ? previous[key] : keepDeep(previous[key], value)
    ])
  )
}

/**
 * The config an update stores: the incoming one, except that a secret key whose value is exactly the
 * mask keeps its stored value, so a client can send back the config it read without erasing secrets.
 */
export const carryOver = (
  stored: Record<string, Json>,
  incoming: Record<string, Json>
): Record<string, Json> => keepDeep(stored, incoming) as Record<string, Json>
