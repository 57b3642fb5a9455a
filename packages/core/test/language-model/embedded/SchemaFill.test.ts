import { describe, expect, it } from "@effect/vitest"
import * as SchemaFill from "../../../src/language-model/embedded/SchemaFill.js"

const empty: SchemaFill.Filler = {
  hint: () => undefined,
  scalar: () => undefined,
  choose: (options) => options[0]?.value
}

describe("SchemaFill", () => {
  it("fills every property with its type's empty value, nullable ones null", () => {
    const schema = {
      type: "object",
      required: ["a", "b"],
      properties: {
        a: { type: "string" },
        b: { type: "integer", minimum: 2.5 },
        c: { type: "number" },
        d: { type: "boolean" },
        e: { anyOf: [{ type: "string" }, { type: "null" }] },
        f: { type: ["number", "null"] },
        g: { type: "array", items: { type: "string" } },
        h: { type: "array", items: { type: "integer" }, minItems: 2 },
        i: { type: "object", properties: { j: { const: "x" } } },
        k: {}
      }
    }
    expect(SchemaFill.fill(schema, empty)).toEqual({
      a: "",
      b: 3,
      c: 0,
      d: false,
      e: null,
      f: null,
      g: [],
      h: [0, 0],
      i: { j: "x" },
      k: null
    })
  })

  it("follows $refs, and chooses among literals with their descriptions", () => {
    const schema = {
      $defs: {
        Size: {
          anyOf: [
            { enum: ["s"], description: "small" },
            { enum: ["l"], description: "large" }
          ]
        }
      },
      type: "object",
      properties: { size: { $ref: "#/$defs/Size" }, color: { enum: ["red", "blue"], description: "a color" } }
    }
    const seen: Array<string> = []
    const value = SchemaFill.fill(schema, {
      ...empty,
      choose: (options) => {
        seen.push(...options.map((option) => option.text))
        return options.at(-1)?.value
      }
    })
    expect(value).toEqual({ size: "l", color: "blue" })
    expect(seen).toEqual(["s small", "l large", "red a color", "blue a color"])
  })

  it("takes hints by path and scalars from the conversation, dates as dates", () => {
    const schema = {
      type: "object",
      properties: {
        meta: { type: "object", properties: { when: { type: "string", description: "a date, YYYY-MM-DD" } } },
        count: { type: "integer" },
        fixed: { type: "string" }
      }
    }
    const asked: Array<string> = []
    const value = SchemaFill.fill(schema, {
      ...empty,
      hint: (path) => (path.join(".") === "fixed" ? { value: "hinted" } : undefined),
      scalar: (name, type) => {
        asked.push(`${name}:${type}`)
        return type === "date" ? "2026-01-02" : type === "number" ? 2.5 : undefined
      }
    })
    // a non-integer for an integer is not taken
    expect(value).toEqual({ meta: { when: "2026-01-02" }, count: 0, fixed: "hinted" })
    expect(asked).toEqual(["when:date", "count:number"])
  })

  it("answers a required name the properties lost, and stops at recursion", () => {
    const properties = Object.create({ type: "string" }) as Record<string, unknown>
    expect(SchemaFill.fill({ type: "object", required: ["__proto__"], properties }, empty)).toEqual(
      JSON.parse('{"__proto__": null}')
    )
    const recursive = {
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
      $ref: "#/$defs/Node"
    }
    let depth = 0
    for (
      let node = SchemaFill.fill(recursive, empty) as { next?: unknown } | null;
      node !== null;
      node = node.next as never
    )
      depth++
    expect(depth).toBeLessThanOrEqual(SchemaFill.maxDepth + 1)
    expect(SchemaFill.fill({ $ref: "#/nowhere" }, empty)).toBe(null)
  })
})
