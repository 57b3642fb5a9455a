import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ApiKey from "../../src/organizations/ApiKey.js"
import * as SecureRandom from "../../src/randomness/SecureRandom.js"

describe("ApiKey", () => {
  it.effect("generates vap_ and 40 base62 characters, different every time", () =>
    Effect.gen(function* () {
      const keys = yield* Effect.all(Array.from({ length: 200 }, () => ApiKey.generate))
      for (const key of keys) expect(ApiKey.isWellFormed(key)).toBe(true)
      expect(new Set(keys).size).toBe(keys.length)
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto))
  )

  it.effect("hashes with SHA-256 (known vector)", () =>
    Effect.gen(function* () {
      expect(yield* ApiKey.hash("abc")).toBe(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
      )
    })
  )

  it("tells well-formed keys from others and shows only a prefix", () => {
    const key = "vap_" + "a".repeat(40)
    expect(ApiKey.isWellFormed(key)).toBe(true)
    expect(ApiKey.isWellFormed(key + "a")).toBe(false)
    expect(ApiKey.isWellFormed("vap_" + "a".repeat(39) + "-")).toBe(false)
    expect(ApiKey.displayPrefix(key)).toBe("vap_aaaa")
  })

  it.effect("draws every base62 character, without bias towards the first ones", () =>
    Effect.gen(function* () {
      const text = yield* SecureRandom.base62String(62 * 400)
      const counts = new Map<string, number>()
      for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1)
      expect(counts.size).toBe(62)
      // Expected 400 each; a modulo-biased draw would give the first 8 characters ~25% more.
      for (const count of counts.values()) expect(count).toBeLessThan(520)
    }).pipe(Effect.provide(SecureRandom.layerSeeded(7)))
  )

  it.effect("makes version-4 UUIDs", () =>
    Effect.gen(function* () {
      const uuid = yield* SecureRandom.uuidV4
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }).pipe(Effect.provide(SecureRandom.layerWebCrypto))
  )
})
