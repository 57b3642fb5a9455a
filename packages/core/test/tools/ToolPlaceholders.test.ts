import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { argumentNames, fill } from "../../src/tools/ToolPlaceholders.js"

describe("ToolPlaceholders.fill", () => {
  it("fills arguments and initial context, with spaces allowed inside the braces", () => {
    expect(
      fill(
        "/orders/{{order_id}}/{{ initial_context.customer.id }}?x={{missing}}",
        { order_id: 42 },
        {
          customer: { id: "c-7" }
        }
      )
    ).toBe("/orders/42/c-7?x=")
  })

  it("encodes every filled value, never the template around it", () => {
    expect(
      fill(
        "https://api.test/a/{{q}}?b={{initial_context.x}}",
        { q: "a/b c?" },
        { x: "&y=1" },
        encodeURIComponent
      )
    ).toBe("https://api.test/a/a%2Fb%20c%3F?b=%26y%3D1")
  })

  it("does not fill a filled value again", () => {
    expect(fill("{{a}}", { a: "{{b}}", b: "no" }, {})).toBe("{{b}}")
    expect(fill("{{a}}", { a: "{{initial_context.k}}" }, { k: "leak" })).toBe("{{initial_context.k}}")
  })

  it("lists the argument names a template reads", () => {
    expect([...argumentNames("/x/{{ id }}/{{initial_context.k}}/{{id}}?{{q}}")]).toEqual(["id", "q"])
  })

  it.prop(
    "with URL encoding, a filled value never adds a path, query or fragment separator",
    // `.` and `..` are dot segments however encoded: `ToolRequest.build` refuses them
    [FastCheck.string().filter((value) => value !== "." && value !== "..")],
    ([value]) => {
      const url = new URL(fill("https://api.test/items/{{v}}", { v: value }, {}, encodeURIComponent))
      expect(url.pathname.split("/")).toHaveLength(3)
      expect(url.search).toBe("")
      expect(url.hash).toBe("")
      expect(decodeURIComponent(url.pathname.split("/")[2]!)).toBe(value)
    }
  )
})
