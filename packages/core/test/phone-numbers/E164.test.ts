import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as E164 from "../../src/phone-numbers/E164.js"

describe("E164.normalize", () => {
  it.each([
    ["+48 500 000 486", "+48500000486"],
    ["+48 (22) 123-45-67", "+48221234567"],
    ["  +1 212 555 0123 ", "+12125550123"],
    ["+18005550199", "+18005550199"]
  ])("normalises %j to %j", (input, expected) => {
    expect(E164.normalize(input)).toEqual(Either.right(expected))
  })

  // "+48 100 000 000" and "+1 212 055 0123" have a possible length but no valid number range.
  it.each([
    "",
    "hello",
    "500000486",
    "+48 12345",
    "+48 100 000 000",
    "+1 212 055 0123",
    "+999 123 456 789",
    "+48 500 000 486 ext. 5".repeat(5)
  ])("refuses %j", (input) => {
    const result = E164.normalize(input)
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left.message).toContain("valid phone number")
  })
})
