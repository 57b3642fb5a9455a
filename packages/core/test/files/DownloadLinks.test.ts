import * as FileErrors from "../../src/files/FileErrors.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, FastCheck, Layer } from "effect"
import * as DownloadLinks from "../../src/files/DownloadLinks.js"
import * as SecureRandom from "../../src/randomness/SecureRandom.js"

const secret = "a test secret that is long enough to sign links"
const keyLayer = DownloadLinks.layer(secret)
const otherKeyLayer = DownloadLinks.layer(`${secret}!`)

const key = "organizations/1/runs/42/recording.wav"
const expiresAt = new Date("2026-03-01T12:00:00.000Z")
const at = (offsetMs: number) => new Date(expiresAt.getTime() + offsetMs)

const parts = (link: DownloadLinks.SignedLink): DownloadLinks.LinkParts => ({
  key: link.key,
  expires: String(link.expires),
  signature: link.signature
})

const reasonOf = (
  effect: Effect.Effect<string, FileErrors.DownloadLinkRefused, DownloadLinks.LinkSigningKey>
) => Effect.map(Effect.flip(effect), (refused) => refused.reason)

/** Blob keys: the ones the engine makes, and any text at all (slashes, spaces, `&`, `=`, emoji...). */
const blobKey = FastCheck.oneof(
  FastCheck.tuple(FastCheck.integer({ min: 1, max: 1e9 }), FastCheck.integer({ min: 1, max: 1e9 })).map(
    ([org, run]) => `organizations/${org}/runs/${run}/transcript.txt`
  ),
  FastCheck.string({ minLength: 1 }),
  FastCheck.string({ unit: "grapheme", minLength: 1 })
)

/** Expiry instants across the Unix range links will ever see, with whole and fractional seconds. */
const expiry = FastCheck.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms))

/** A string with the character at `index` (mod length) replaced by another one. */
const changeOne = (text: string, index: number, replacement: string): string => {
  const i = index % text.length
  const other = replacement === text[i] ? (replacement === "A" ? "B" : "A") : replacement
  return text.slice(0, i) + other + text.slice(i + 1)
}

/** Before every expiry: a refusal at this instant can only come from the link's content. */
const longAgo = new Date(-8.64e15)

const anyChar = FastCheck.oneof(
  FastCheck.constantFrom("A", "a", "0", "9", "-", "_", "+", "/", "=", "%", "&", " ", "\u00e9", "\uD800"),
  FastCheck.string({ minLength: 1, maxLength: 1, unit: "binary" })
)

describe("DownloadLinks", () => {
  it.effect("a signed link grants its key until it expires, to the second", () =>
    Effect.gen(function* () {
      const link = yield* DownloadLinks.sign(key, expiresAt)
      expect(link).toMatchObject({ key, expires: 1772366400 })
      expect(link.signature).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(DownloadLinks.expiresAt(link)).toEqual(expiresAt)
      expect(yield* DownloadLinks.verify(parts(link), at(-1))).toBe(key)
      expect(yield* reasonOf(DownloadLinks.verify(parts(link), at(0)))).toBe("expired")
      expect(yield* reasonOf(DownloadLinks.verify(parts(link), at(86_400_000)))).toBe("expired")
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("rounds a fractional expiry down, so a link never outlives what was asked", () =>
    Effect.gen(function* () {
      const link = yield* DownloadLinks.sign(key, at(999))
      expect(DownloadLinks.expiresAt(link)).toEqual(expiresAt)
      expect(yield* reasonOf(DownloadLinks.verify(parts(link), at(500)))).toBe("expired")
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("the same link signed twice is the same link; another key or expiry signs differently", () =>
    Effect.gen(function* () {
      const a = yield* DownloadLinks.sign(key, expiresAt)
      expect(yield* DownloadLinks.sign(key, expiresAt)).toEqual(a)
      expect((yield* DownloadLinks.sign(`${key}x`, expiresAt)).signature).not.toBe(a.signature)
      expect((yield* DownloadLinks.sign(key, at(1000))).signature).not.toBe(a.signature)
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("a link signed with another secret is refused", () =>
    Effect.gen(function* () {
      const link = yield* DownloadLinks.sign(key, expiresAt).pipe(Effect.provide(otherKeyLayer))
      expect(yield* reasonOf(DownloadLinks.verify(parts(link), at(-1000)))).toBe("bad_signature")
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("refuses missing parts and non-canonical spellings of the expiry", () =>
    Effect.gen(function* () {
      const link = parts(yield* DownloadLinks.sign(key, expiresAt))
      const now = at(-1000)
      for (const malformed of [
        { ...link, key: undefined },
        { ...link, expires: undefined },
        { ...link, signature: undefined },
        { ...link, expires: `0${link.expires}` },
        { ...link, expires: `+${link.expires}` },
        { ...link, expires: `${link.expires}.0` },
        { ...link, signature: `${link.signature}=` },
        { ...link, key: `${key}\uD800` }
      ]) {
        expect(yield* reasonOf(DownloadLinks.verify(malformed, now))).toBe("malformed")
      }
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("renders its parts as a query string that URLSearchParams reads back", () =>
    Effect.gen(function* () {
      const link = yield* DownloadLinks.sign("a b&c=d/é?#+", expiresAt)
      const query = DownloadLinks.toQuery(link)
      expect(query).toMatch(/^key=[^&]+&expires=1772366400&signature=[A-Za-z0-9_-]{43}$/)
      const read = new URLSearchParams(query)
      expect(read.get("key")).toBe("a b&c=d/é?#+")
      expect(read.get("signature")).toBe(link.signature)
    }).pipe(Effect.provide(keyLayer))
  )

  it.effect("refuses a configured secret shorter than 32 bytes; the random default differs per process", () =>
    Effect.gen(function* () {
      const short = yield* Effect.exit(Layer.build(DownloadLinks.layer("x".repeat(31))).pipe(Effect.scoped))
      expect(Exit.isFailure(short)).toBe(true)
      const secretOf = DownloadLinks.LinkSigningKey.pipe(
        Effect.map(({ secret }) => Array.from(secret)),
        Effect.provide(DownloadLinks.layerRandom),
        Effect.provide(SecureRandom.layerWebCrypto)
      )
      const a = yield* secretOf
      expect(a).toHaveLength(32)
      expect(yield* secretOf).not.toEqual(a)
    })
  )

  it.effect.prop(
    "a signed link verifies at every instant before its expiry and at none after",
    [
      blobKey,
      expiry,
      FastCheck.oneof(
        FastCheck.constantFrom(-1, 0),
        FastCheck.integer({ min: -10 * 86_400_000, max: 10 * 86_400_000 })
      )
    ],
    ([blob, expires, offset]) =>
      Effect.gen(function* () {
        const link = yield* DownloadLinks.sign(blob, expires)
        const deadline = DownloadLinks.expiresAt(link).getTime()
        const now = new Date(deadline + offset)
        const result = yield* Effect.either(DownloadLinks.verify(parts(link), now))
        if (offset < 0) {
          expect(result._tag === "Right" && result.right).toBe(blob)
        } else {
          expect(result._tag === "Left" && result.left.reason).toBe("expired")
        }
      }).pipe(Effect.provide(keyLayer)),
    { fastCheck: { numRuns: 200 } }
  )

  it.effect.prop(
    "changing any single character of the key, the expiry or the signature fails",
    [
      blobKey,
      expiry,
      FastCheck.constantFrom("key" as const, "expires" as const, "signature" as const),
      FastCheck.nat(),
      anyChar
    ],
    ([blob, expires, field, index, replacement]) =>
      Effect.gen(function* () {
        const link = parts(yield* DownloadLinks.sign(blob, expires))
        expect(yield* DownloadLinks.verify(link, longAgo)).toBe(blob)
        const tampered = { ...link, [field]: changeOne(link[field]!, index, replacement) }
        const result = yield* Effect.either(DownloadLinks.verify(tampered, longAgo))
        expect(result._tag).toBe("Left")
      }).pipe(Effect.provide(keyLayer)),
    { fastCheck: { numRuns: 500 } }
  )

  it.effect.prop(
    "changing any single character of the query string fails, unless it still reads as the same link",
    [blobKey, expiry, FastCheck.nat(), anyChar],
    ([blob, expires, index, replacement]) =>
      Effect.gen(function* () {
        const link = yield* DownloadLinks.sign(blob, expires)
        const tampered = new URLSearchParams(changeOne(DownloadLinks.toQuery(link), index, replacement))
        const read = {
          key: tampered.get("key") ?? undefined,
          expires: tampered.get("expires") ?? undefined,
          signature: tampered.get("signature") ?? undefined
        }
        const result = yield* Effect.either(DownloadLinks.verify(read, longAgo))
        // e.g. "%2F" → "%2f" names the very same key: that grants nothing the link did not already grant.
        if (result._tag === "Right") expect(read).toEqual(parts(link))
      }).pipe(Effect.provide(keyLayer)),
    { fastCheck: { numRuns: 500 } }
  )
})
