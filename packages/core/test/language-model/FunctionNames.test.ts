import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as FunctionNames from "../../src/language-model/FunctionNames.js"

const wellFormed = /^[a-z0-9_]{1,64}$/

/** Tool names as people write them: words, punctuation, Polish letters, emoji, and often the same name. */
const toolName = FastCheck.oneof(
  FastCheck.constantFrom("", "Lookup", "lookup", "LOOKUP", "look-up", "tool", "tool_2", "x".repeat(64)),
  FastCheck.string({ maxLength: 80 }),
  FastCheck.string({ unit: "binary", maxLength: 80 }),
  FastCheck.stringMatching(/^[A-Za-ząćęłńóśźż _-]{60,90}$/)
)

describe("FunctionNames", () => {
  it("lowercases a tool's name and replaces every character outside [a-z0-9_] by _", () => {
    expect(FunctionNames.base("Check Order")).toBe("check_order")
    expect(FunctionNames.base("Zamów pizzę!")).toBe("zam_w_pizz__")
    expect(FunctionNames.base("get_weather_2")).toBe("get_weather_2")
    expect(FunctionNames.base("Pogoda 😀")).toBe("pogoda___")
  })

  it("cuts a long name at 64 characters and names an empty one `tool`", () => {
    expect(FunctionNames.base("A".repeat(100))).toBe("a".repeat(64))
    expect(FunctionNames.base("")).toBe("tool")
    expect(FunctionNames.assign(["", ""])).toEqual(["tool", "tool_2"])
  })

  it("gives a name an earlier tool took _2, _3, … in order", () => {
    expect(FunctionNames.assign(["Lookup", "lookup", "LOOK UP", "LOOKUP"])).toEqual([
      "lookup",
      "lookup_2",
      "look_up",
      "lookup_3"
    ])
    // a suffixed name another tool already has is skipped as well
    expect(FunctionNames.assign(["lookup_2", "lookup", "lookup"])).toEqual(["lookup_2", "lookup", "lookup_3"])
    expect(FunctionNames.assign(["", "", "tool_2"])).toEqual(["tool", "tool_2", "tool_2_2"])
  })

  it("cuts a long name so that its suffix fits in 64 characters", () => {
    const long = "x".repeat(70)
    const names = FunctionNames.assign(Array.from({ length: 11 }, () => long))
    expect(names[0]).toBe("x".repeat(64))
    expect(names[1]).toBe(`${"x".repeat(62)}_2`)
    expect(names[10]).toBe(`${"x".repeat(61)}_11`)
    expect(names.every((name) => name.length === FunctionNames.maxLength)).toBe(true)
  })

  it.prop(
    "names are distinct, well formed, one per tool and the same every time",
    [FastCheck.array(toolName, { maxLength: 30 })],
    ([tools]) => {
      const names = FunctionNames.assign(tools)
      expect(names).toHaveLength(tools.length)
      expect(new Set(names).size).toBe(names.length)
      for (const name of names) expect(name).toMatch(wellFormed)
      expect(FunctionNames.assign([...tools])).toEqual(names)
    }
  )

  it.prop(
    "each name is its tool's own, or that name cut to make room for a numbered suffix",
    [FastCheck.array(toolName, { maxLength: 30 })],
    ([tools]) => {
      const names = FunctionNames.assign(tools)
      tools.forEach((tool, i) => {
        const wanted = FunctionNames.base(tool)
        expect(wanted).toMatch(wellFormed)
        const name = names[i]!
        if (!names.slice(0, i).includes(wanted)) expect(name).toBe(wanted)
        else {
          const suffix = /_(\d+)$/.exec(name)![0]
          expect(Number(suffix.slice(1))).toBeGreaterThanOrEqual(2)
          expect(name).toBe(wanted.slice(0, FunctionNames.maxLength - suffix.length) + suffix)
        }
      })
    }
  )

  it.prop(
    "adding tools at the end never renames the earlier ones",
    [FastCheck.array(toolName, { maxLength: 15 }), FastCheck.array(toolName, { maxLength: 15 })],
    ([earlier, later]) => {
      expect(FunctionNames.assign([...earlier, ...later]).slice(0, earlier.length)).toEqual(
        FunctionNames.assign(earlier)
      )
    }
  )
})
