import { describe, expect, it } from "@effect/vitest"
import { ApiKey } from "@voice-agent-platform/core"
import { Effect, FastCheck } from "effect"
import { sha256Hex } from "../../src/middleware/KeyHash.js"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const wellFormedKey = FastCheck.array(FastCheck.constantFrom(...base62), {
  minLength: 40,
  maxLength: 40
}).map((characters) => `vap_${characters.join("")}`)

describe("KeyHash", () => {
  it("is the key's SHA-256 in lower-case hex (as sha256sum prints it)", () => {
    expect(sha256Hex(`vap_${"A".repeat(40)}`)).toBe(
      "87936b09c0faf884d61bf8011a4e4d2250bd26a15cb01f161aec8b9154fd643b"
    )
    // UTF-8, as Web Crypto's TextEncoder encodes it
    expect(sha256Hex("vap_é")).toBe("771542ff898b2f51a011e435b5218d46b6d6b9cb223c55d916f6588f1dbf63e5")
  })

  it.effect.prop(
    "equals the stored hash (ApiKey.hash, Web Crypto) for every well-formed key",
    [wellFormedKey],
    ([key]) => Effect.map(ApiKey.hash(key), (stored) => sha256Hex(key) === stored)
  )
})
