import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, ParseResult, Schema } from "effect"
import { IdempotencyKey } from "../../src/idempotency/IdempotencyKey.js"

const decode = Schema.decodeUnknownEither(IdempotencyKey)
const printable = FastCheck.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c))
const visible = FastCheck.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c))

describe("IdempotencyKey", () => {
  it("accepts UUIDs, client composite keys and inner spaces, up to 255 characters", () => {
    for (const key of [
      "8e03978e-40d5-43e8-bc93-6894a57f9324",
      "order:42/retry#1",
      '"quoted as a structured header"',
      "a b",
      "x",
      "k".repeat(255)
    ]) {
      expect(Either.isRight(decode(key))).toBe(true)
    }
  })

  it("refuses empty, too long, non-ASCII, control characters and outer spaces, with one message", () => {
    for (const key of ["", "k".repeat(256), "zażółć", "tab\there", "line\nbreak", " lead", "trail ", " "]) {
      const result = decode(key)
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
        expect(issues).toHaveLength(1)
        expect(issues[0]?.message).toBe(
          "Idempotency-Key must be 1 to 255 printable ASCII characters, without leading or trailing spaces"
        )
      }
    }
  })

  it.prop(
    "accepts any printable key with visible first and last characters",
    [visible, FastCheck.array(printable, { maxLength: 253 }), visible],
    ([first, middle, last]) => {
      expect(Either.isRight(decode(first + middle.join("") + last))).toBe(true)
    }
  )

  it.prop(
    "accepts exactly the printable-ASCII keys of 1..255 characters without outer spaces",
    [
      FastCheck.oneof(
        FastCheck.string({ unit: "binary-ascii", maxLength: 260 }),
        FastCheck.string({ unit: printable, maxLength: 260 }),
        FastCheck.string({ unit: "binary", maxLength: 20 })
      )
    ],
    ([key]) => {
      const codes = Array.from(key, (c) => c.charCodeAt(0))
      const expected =
        key.length >= 1 &&
        key.length <= 255 &&
        codes.every((c) => c >= 0x20 && c <= 0x7e) &&
        !key.startsWith(" ") &&
        !key.endsWith(" ")
      expect(Either.isRight(decode(key))).toBe(expected)
    }
  )
})
