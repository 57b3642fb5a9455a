import { Context, Effect, Layer } from "effect"

/**
 * Cryptographically secure random bytes, for API keys, public ids and signing secrets.
 *
 * A port so that tests can make ids predictable; the live layer uses the Web Crypto API, which Node,
 * Deno, Bun and browsers all have.
 */
export class SecureRandom extends Context.Tag("@voice-agent-platform/core/SecureRandom")<
  SecureRandom,
  { readonly bytes: (length: number) => Effect.Effect<Uint8Array> }
>() {}

/** Random bytes from `globalThis.crypto.getRandomValues`. */
export const layerWebCrypto: Layer.Layer<SecureRandom> = Layer.succeed(SecureRandom, {
  bytes: (length) => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(length)))
})

/** Deterministic bytes from a seed, for tests and examples: never for production secrets. */
export const layerSeeded = (seed: number): Layer.Layer<SecureRandom> =>
  Layer.sync(SecureRandom, () => {
    // mulberry32: small, fast, and good enough to make test ids look random.
    let state = seed >>> 0
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return ((t ^ (t >>> 14)) >>> 0) & 0xff
    }
    return {
      bytes: (length) => Effect.sync(() => Uint8Array.from({ length }, next))
    }
  })

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/**
 * Draws `length` base62 characters without modulo bias: bytes of 248 and above are thrown away and
 * more are drawn, so every character is equally likely.
 */
export const base62String = (length: number): Effect.Effect<string, never, SecureRandom> =>
  Effect.gen(function* () {
    const random = yield* SecureRandom
    let out = ""
    while (out.length < length) {
      const bytes = yield* random.bytes(Math.ceil((length - out.length) * 1.1) + 4)
      for (const byte of bytes) {
        if (byte < 248 && out.length < length) out += base62[byte % 62]
      }
    }
    return out
  })

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** A random version-4 UUID (`tool_uuid`, `document_uuid`, reservation ids). */
export const uuidV4: Effect.Effect<string, never, SecureRandom> = Effect.gen(function* () {
  const random = yield* SecureRandom
  const bytes = yield* random.bytes(16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const h = hex(bytes)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
})
