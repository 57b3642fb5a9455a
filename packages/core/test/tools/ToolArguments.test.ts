import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import { check } from "../../src/tools/ToolArguments.js"
import type { ToolParameter } from "../../src/tools/ToolDefinition.js"

const parameters: ReadonlyArray<ToolParameter> = [
  { name: "city", type: "string", description: "", required: true },
  { name: "days", type: "number", description: "", required: false },
  { name: "metric", type: "boolean", description: "", required: false }
]

describe("ToolArguments.check", () => {
  it("passes declared arguments of the declared types, leaving out absent and null optional ones", () => {
    expect(check(parameters, { city: "Kraków", days: 3, metric: null })).toEqual(
      Either.right({ city: "Kraków", days: 3 })
    )
  })

  it("names every problem: a missing required one, a wrong type, a non-finite number, an unknown name", () => {
    expect(check(parameters, { days: "3", metric: 1, extra: true })).toEqual(
      Either.left(
        "city is required; days must be a number, got string; metric must be a boolean, got number; unknown argument extra"
      )
    )
    expect(check(parameters, { city: "x", days: Number.NaN })).toEqual(
      Either.left("days must be a number, got number")
    )
    expect(check(parameters, { city: null })).toEqual(Either.left("city is required"))
  })

  it("takes the extra names a tool type accepts besides its parameters", () => {
    expect(check(null, { destination_number: "+48500000486" }, ["destination_number"])).toEqual(
      Either.right({})
    )
    expect(Either.isLeft(check(null, { destination_number: "+48500000486" }))).toBe(true)
  })

  it("keeps a parameter named __proto__ as an ordinary argument", () => {
    const checked = Either.getOrThrow(
      check(
        [{ name: "__proto__", type: "string", description: "", required: true }],
        JSON.parse('{"__proto__":"x"}')
      )
    )
    expect(Object.entries(checked)).toEqual([["__proto__", "x"]])
  })

  it("does not read inherited properties as arguments", () => {
    expect(check([{ name: "toString", type: "string", description: "", required: true }], {})).toEqual(
      Either.left("toString is required")
    )
  })

  it.prop(
    "a passing call holds only declared names, each of its declared type, and every required one",
    [FastCheck.dictionary(FastCheck.constantFrom("city", "days", "metric", "other"), FastCheck.jsonValue())],
    ([args]) => {
      const checked = check(parameters, args)
      if (Either.isRight(checked)) {
        expect(typeof checked.right["city"]).toBe("string")
        for (const [name, value] of Object.entries(checked.right)) {
          const parameter = parameters.find((p) => p.name === name)
          expect(parameter).toBeDefined()
          expect(typeof value).toBe(parameter!.type)
        }
      } else {
        expect(checked.left.length).toBeGreaterThan(0)
      }
    }
  )
})
