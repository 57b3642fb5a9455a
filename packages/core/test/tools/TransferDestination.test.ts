import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import { resolve } from "../../src/tools/TransferDestination.js"

const allowed = ["+48500000486", "+442071838750"]

describe("TransferDestination.resolve", () => {
  it("uses a model-supplied number that is one of the agent's numbers, compared in E.164", () => {
    expect(resolve("+48 500 000 486", allowed, "+48221234567")).toEqual(Either.right("+48500000486"))
    expect(resolve("+44 20 7183 8750", allowed, null)).toEqual(Either.right("+442071838750"))
  })

  it("falls back to the tool's own number for any other number, or none", () => {
    expect(resolve("+48501111111", allowed, "+48221234567")).toEqual(Either.right("+48221234567"))
    expect(resolve(undefined, allowed, "+48 22 123 45 67")).toEqual(Either.right("+48221234567"))
    expect(resolve(12, [], "+48221234567")).toEqual(Either.right("+48221234567"))
  })

  it("has no destination when neither applies", () => {
    expect(Either.isLeft(resolve("+48501111111", allowed, null))).toBe(true)
    expect(Either.isLeft(resolve(undefined, [], "  "))).toBe(true)
  })

  const supplied = FastCheck.oneof(
    FastCheck.constantFrom(...allowed, "+48 500 000 486", "00 48 500000486", "+48501111111", "", "+"),
    FastCheck.string(),
    FastCheck.stringMatching(/^\+[0-9 ]{0,16}$/),
    FastCheck.jsonValue()
  )
  const toolNumber = FastCheck.option(
    FastCheck.constantFrom("+48221234567", "+1 202 555 0143", "not a number"),
    {
      nil: null
    }
  )

  it.prop(
    "whatever the model supplies, the destination is one of the transfer numbers or the tool's own",
    [supplied, FastCheck.subarray(allowed), toolNumber],
    ([number, transferNumbers, own]) => {
      const ownResolved = own === null ? [] : [Either.getOrThrow(resolve(undefined, [], own))]
      Either.match(resolve(number, transferNumbers, own), {
        onLeft: () => expect(own).toBeNull(),
        onRight: (destination) => expect([...transferNumbers, ...ownResolved]).toContain(destination)
      })
    }
  )
})
