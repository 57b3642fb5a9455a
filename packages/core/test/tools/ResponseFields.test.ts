import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { at, pick } from "../../src/tools/ResponseFields.js"

const body = { order: { id: 7, items: [{ name: "pizza" }, { name: "cola" }] }, status: "ok" }

describe("ResponseFields.pick", () => {
  it("answers the whole body when no field is named", () => {
    expect(pick(body, null)).toBe(body)
    expect(pick(body, [])).toBe(body)
  })

  it("picks dotted paths with array indices, a path reading nothing as null", () => {
    expect(
      pick(body, ["order.items.1.name", "status", "order.items.5.name", "order.items.x", "nope"])
    ).toEqual({
      "order.items.1.name": "cola",
      status: "ok",
      "order.items.5.name": null,
      "order.items.x": null,
      nope: null
    })
  })

  it("never reads inherited properties", () => {
    expect(at(body, "constructor")).toBeUndefined()
    expect(at(body, "order.items.length")).toBeUndefined()
    expect(at(body, "status.length")).toBeUndefined()
  })

  it.prop(
    "a path built from a value's own keys and indices reads the value found by walking them",
    [FastCheck.jsonValue(), FastCheck.array(FastCheck.nat(), { maxLength: 6 })],
    ([value, choices]) => {
      const keys: Array<string> = []
      let current: unknown = value
      for (const choice of choices) {
        if (typeof current !== "object" || current === null) break
        const own = Array.isArray(current) ? current.map((_, i) => String(i)) : Object.keys(current)
        if (own.length === 0) break
        const key = own[choice % own.length]!
        if (key.includes(".") || key === "") break
        keys.push(key)
        current = (current as Record<string, unknown>)[key]
      }
      if (keys.length > 0) expect(at(value, keys.join("."))).toEqual(current)
    }
  )
})
