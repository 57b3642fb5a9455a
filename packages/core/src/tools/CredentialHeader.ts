import { Redacted } from "effect"
import type { Credential } from "./Credential.js"

/**
 * The header a credential authenticates with: `bearer` → `Authorization: Bearer <secret>`, `basic` →
 * `Authorization: Basic <base64 of username:password>`, `api_key_header` → `<header_name>: <secret>`.
 */
export const headerOf = (credential: Credential): readonly [string, string] => {
  const secret = Redacted.value(credential.secret)
  switch (credential.kind) {
    case "bearer":
      return ["authorization", `Bearer ${secret}`]
    case "basic":
      return ["authorization", `Basic ${base64(secret)}`]
    case "api_key_header":
      return [credential.header_name ?? "x-api-key", secret]
  }
}

/** Base64 of the UTF-8 bytes (core has no Buffer: `btoa` takes one byte per character). */
const base64 = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The texts that must never be shown: the secret itself and the header value carrying it. */
export const secretTexts = (credential: Credential): ReadonlyArray<string> => {
  const [, value] = headerOf(credential)
  return [Redacted.value(credential.secret), value, value.replace(/^(Bearer|Basic) /, "")]
}
