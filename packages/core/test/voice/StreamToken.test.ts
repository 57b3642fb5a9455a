import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { make, minimumSecretBytes, verify } from "../../src/voice/StreamToken.js"

const secret = new Uint8Array(32).map((_, index) => index * 7 + 1)
const otherSecret = new Uint8Array(32).fill(9)
const expiresAt = new Date("2026-11-27T16:00:00.000Z")
const before = new Date("2026-11-27T15:59:59.999Z")

const refusal = (token: string, runId: number, now: Date, key = secret) =>
  Effect.map(Effect.either(verify(token, runId, now, key)), (result) =>
    Either.isLeft(result) ? result.left.reason : "accepted"
  )

describe("StreamToken", () => {
  it.effect("a token verifies for its run before it expires, and is path-safe", () =>
    Effect.gen(function* () {
      const token = yield* make(42, expiresAt, secret)
      expect(token).toMatch(/^[0-9]+\.[A-Za-z0-9_-]{43}$/)
      expect(token.startsWith(`${expiresAt.getTime() / 1000}.`)).toBe(true)
      expect(yield* refusal(token, 42, before)).toBe("accepted")
    })
  )

  it.effect("is refused once expired, from the expiry instant on", () =>
    Effect.gen(function* () {
      const token = yield* make(42, expiresAt, secret)
      expect(yield* refusal(token, 42, expiresAt)).toBe("expired")
      expect(yield* refusal(token, 42, new Date(expiresAt.getTime() + 3_600_000))).toBe("expired")
    })
  )

  it.effect("rounds the expiry down to the second, so a token never outlives what was asked", () =>
    Effect.gen(function* () {
      const token = yield* make(7, new Date("2026-11-27T16:00:00.900Z"), secret)
      expect(yield* refusal(token, 7, new Date("2026-11-27T16:00:00.100Z"))).toBe("expired")
    })
  )

  it.effect("is refused for another run and under another secret", () =>
    Effect.gen(function* () {
      const token = yield* make(42, expiresAt, secret)
      expect(yield* refusal(token, 43, before)).toBe("bad_signature")
      expect(yield* refusal(token, 42, before, otherSecret)).toBe("bad_signature")
    })
  )

  it.effect("is refused when tampered with: a later expiry, a changed signature character", () =>
    Effect.gen(function* () {
      const token = yield* make(42, expiresAt, secret)
      const [expires, signature] = token.split(".") as [string, string]
      expect(yield* refusal(`${Number(expires) + 3600}.${signature}`, 42, before)).toBe("bad_signature")
      const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`
      expect(yield* refusal(`${expires}.${flipped}`, 42, before)).toBe("bad_signature")
    })
  )

  it.effect("refuses malformed tokens without computing anything", () =>
    Effect.gen(function* () {
      const token = yield* make(42, expiresAt, secret)
      const [expires, signature] = token.split(".") as [string, string]
      for (const bad of [
        "",
        "abc",
        expires,
        `${expires}.`,
        `0${expires}.${signature}`,
        `+${expires}.${signature}`,
        `${expires}.${signature}=`,
        `${expires}.${signature.slice(1)}`,
        `${expires}.${signature}/x`
      ]) {
        expect(yield* refusal(bad, 42, before)).toBe("malformed")
      }
      expect(yield* refusal(token, 0, before)).toBe("malformed")
    })
  )

  it.effect("will not work with a secret shorter than the minimum", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(make(1, expiresAt, new Uint8Array(minimumSecretBytes - 1)))
      expect(exit._tag).toBe("Failure")
    })
  )
})
