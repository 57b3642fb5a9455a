import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import * as WebhookSignature from "../../src/webhooks/WebhookSignature.js"

// The Standard Webhooks reference example (standard-webhooks/standard-webhooks libraries' tests).
const reference = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
}
const at = (seconds: number) => new Date(seconds * 1000)

const secretArb = FastCheck.uint8Array({ minLength: 24, maxLength: 64 }).map(WebhookSignature.secretFromBytes)
const timestampArb = FastCheck.integer({ min: 1_000_000_000, max: 4_000_000_000 })

describe("WebhookSignature", () => {
  it.effect("signs the reference message exactly as Standard Webhooks does", () =>
    Effect.gen(function* () {
      const { body, id, secret, signature, timestamp } = reference
      expect(yield* WebhookSignature.sign(secret, id, timestamp, body)).toBe(signature)
      const headers = { id, timestamp: String(timestamp), signature }
      expect(yield* WebhookSignature.verify(secret, headers, body, at(timestamp))).toEqual({ _tag: "Valid" })
    })
  )

  it.effect("accepts any one matching signature of several (key rotation) and refuses others", () =>
    Effect.gen(function* () {
      const { body, id, secret, signature, timestamp } = reference
      const headers = (s: string) => ({ id, timestamp: String(timestamp), signature: s })
      const rotated = `v1,bm90IHRoaXMgb25l ${signature}`
      expect(yield* WebhookSignature.verify(secret, headers(rotated), body, at(timestamp))).toEqual({
        _tag: "Valid"
      })
      expect(
        yield* WebhookSignature.verify(secret, headers("v1,bm90IHRoaXMgb25l"), body, at(timestamp))
      ).toEqual({ _tag: "NoMatchingSignature" })
      // Only v1 signatures count: the same bytes under another version are not a match.
      expect(
        yield* WebhookSignature.verify(secret, headers(`v2,${signature.slice(3)}`), body, at(timestamp))
      ).toEqual({ _tag: "NoMatchingSignature" })
    })
  )

  it.effect("bounds the timestamp to five minutes either way and refuses one that is not a number", () =>
    Effect.gen(function* () {
      const { body, id, secret, signature, timestamp } = reference
      const headers = (t: string) => ({ id, timestamp: t, signature })
      const verify = (t: string, now: number) => WebhookSignature.verify(secret, headers(t), body, at(now))
      expect(yield* verify(String(timestamp), timestamp + 300)).toEqual({ _tag: "Valid" })
      expect(yield* verify(String(timestamp), timestamp - 300)).toEqual({ _tag: "Valid" })
      expect(yield* verify(String(timestamp), timestamp + 301)).toEqual({ _tag: "TimestampOutOfTolerance" })
      expect(yield* verify(String(timestamp), timestamp - 301)).toEqual({ _tag: "TimestampOutOfTolerance" })
      expect(yield* verify("12ab", timestamp)).toEqual({ _tag: "InvalidTimestamp" })
      expect(yield* verify("", timestamp)).toEqual({ _tag: "InvalidTimestamp" })
    })
  )

  it("compares in constant time, and equal only for equal strings", () => {
    expect(WebhookSignature.constantTimeEqual("abc", "abc")).toBe(true)
    expect(WebhookSignature.constantTimeEqual("abc", "abd")).toBe(false)
    expect(WebhookSignature.constantTimeEqual("abc", "abcd")).toBe(false)
    expect(WebhookSignature.constantTimeEqual("", "")).toBe(true)
  })

  it("round-trips secrets: whsec_ and the base64 of the key bytes", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
    const secret = WebhookSignature.secretFromBytes(bytes)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(WebhookSignature.keyBytes(secret)).toEqual(bytes)
  })

  it.prop("constant-time equality agrees with ===", [FastCheck.string(), FastCheck.string()], ([a, b]) => {
    expect(WebhookSignature.constantTimeEqual(a, b)).toBe(a === b)
  })

  it.effect.prop(
    "verifies whatever it signed within the tolerance",
    [
      secretArb,
      FastCheck.string({ minLength: 1 }),
      timestampArb,
      FastCheck.string(),
      FastCheck.integer({ min: -300, max: 300 })
    ],
    ([secret, id, timestamp, body, skew]) =>
      Effect.gen(function* () {
        const signature = yield* WebhookSignature.sign(secret, id, timestamp, body)
        expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
        const headers = { id, timestamp: String(timestamp), signature }
        expect(yield* WebhookSignature.verify(secret, headers, body, at(timestamp + skew))).toEqual({
          _tag: "Valid"
        })
      })
  )

  it.effect.prop(
    "refuses any change to body, key, timestamp or id",
    [
      secretArb,
      secretArb,
      FastCheck.string({ minLength: 1 }),
      timestampArb,
      FastCheck.string(),
      FastCheck.string()
    ],
    ([secret, otherSecret, id, timestamp, body, otherBody]) =>
      Effect.gen(function* () {
        const signature = yield* WebhookSignature.sign(secret, id, timestamp, body)
        const headers = { id, timestamp: String(timestamp), signature }
        const now = at(timestamp)
        // Any change to the body, the key, the id or the timestamp breaks the signature.
        if (otherBody !== body) {
          expect((yield* WebhookSignature.verify(secret, headers, otherBody, now))._tag).toBe(
            "NoMatchingSignature"
          )
        }
        if (otherSecret !== secret) {
          expect((yield* WebhookSignature.verify(otherSecret, headers, body, now))._tag).toBe(
            "NoMatchingSignature"
          )
        }
        const moved = { ...headers, timestamp: String(timestamp + 1) }
        expect((yield* WebhookSignature.verify(secret, moved, body, now))._tag).toBe("NoMatchingSignature")
        const renamed = { ...headers, id: `${id}x` }
        expect((yield* WebhookSignature.verify(secret, renamed, body, now))._tag).toBe("NoMatchingSignature")
      })
  )
})
