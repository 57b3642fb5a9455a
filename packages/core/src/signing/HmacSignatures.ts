/**
 * HMAC-SHA256 signatures as URL-safe text, and their comparison: what signed download links
 * (`files/DownloadLinks`) and media-socket tokens (`voice/StreamToken`) are made of. Web Crypto only, so
 * it runs wherever core does.
 */

type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>

// Importing a secret is asynchronous and the same for every signature: once per secret.
const importedKeys = new WeakMap<Uint8Array, Promise<HmacKey>>()

const cryptoKey = (secret: Uint8Array): Promise<HmacKey> => {
  let key = importedKeys.get(secret)
  if (key === undefined) {
    key = globalThis.crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign"
    ])
    importedKeys.set(secret, key)
  }
  return key
}

/** Bytes as base64url without padding (RFC 4648 §5): safe in a URL's path and query. */
export const base64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return globalThis.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** The HMAC-SHA256 of `message` under `secret`, as base64url. */
export const sign = async (secret: Uint8Array, message: string): Promise<string> => {
  const mac = await globalThis.crypto.subtle.sign(
    "HMAC",
    await cryptoKey(secret),
    new TextEncoder().encode(message)
  )
  return base64Url(new Uint8Array(mac))
}

/** Compares in time that depends only on the lengths (which are public), never on where they differ. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
