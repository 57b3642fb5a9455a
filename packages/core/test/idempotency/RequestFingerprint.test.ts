import { describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import { canonicalJson, fingerprint } from "../../src/idempotency/RequestFingerprint.js"

/** The same value with every object's keys in another order. */
const reorder = (value: unknown, seed: number): unknown => {
  if (Array.isArray(value)) return value.map((item, i) => reorder(item, seed + i))
  if (value === null || typeof value !== "object") return value
  const entries = Object.entries(value as Record<string, unknown>)
  const rotated =
    entries.length === 0
      ? []
      : [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)]
  return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, reorder(v, seed + 1)]))
}

const request = (
  body: unknown,
  overrides: Partial<{ method: string; route: string; path: Record<string, unknown> }> = {}
) => ({
  method: "POST",
  route: "/agents/:agent_id/calls",
  path: { agent_id: "agent_abc" },
  body,
  ...overrides
})

describe("RequestFingerprint.canonicalJson", () => {
  it("sorts keys at every depth and leaves no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}'
    )
    expect(canonicalJson({ "10": 1, "2": 2, a: 3 })).toBe('{"10":1,"2":2,"a":3}')
  })

  it("reads values as JSON.stringify does", () => {
    expect(canonicalJson({ gone: undefined, at: new Date("2026-02-10T11:00:00.000Z"), n: NaN })).toBe(
      '{"at":"2026-02-10T11:00:00.000Z","n":null}'
    )
    expect(canonicalJson([undefined, 1])).toBe("[null,1]")
    expect(canonicalJson("é\n")).toBe(JSON.stringify("é\n"))
    expect(canonicalJson(null)).toBe("null")
  })

  it.prop(
    "ignores key order and stays JSON for the same value",
    [FastCheck.jsonValue(), FastCheck.nat()],
    ([value, seed]) => {
      // key order never matters, and the text is JSON for the same value
      expect(canonicalJson(reorder(value, seed))).toBe(canonicalJson(value))
      expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
    }
  )
})

describe("RequestFingerprint.fingerprint", () => {
  it.effect("is the hex SHA-256 of the canonical request, equal for equal requests", () =>
    Effect.gen(function* () {
      const a = yield* fingerprint(request({ phone_number: "+48500100200", initial_context: { x: 1, y: 2 } }))
      const b = yield* fingerprint(request({ initial_context: { y: 2, x: 1 }, phone_number: "+48500100200" }))
      expect(a).toMatch(/^[0-9a-f]{64}$/)
      expect(b).toBe(a)
      const empty = yield* fingerprint({ method: "post", route: "/r", path: {}, body: null })
      // SHA-256 of `["POST","/r",{},null]`
      expect(empty).toBe("cda7aac89df8946dd7d27f15d8b8cfd1ae04efffac432acedfa0942bdda7e4e5")
    })
  )

  it.effect("differs when the body, the route, the path or the method differs", () =>
    Effect.gen(function* () {
      const base = yield* fingerprint(request({ phone_number: "+48500100200" }))
      const variants = [
        request({ phone_number: "+48500100201" }),
        request({ phone_number: "+48500100200", initial_context: null }),
        request({ phone_number: "+48500100200" }, { route: "/workflow/:workflow_id/calls" }),
        request({ phone_number: "+48500100200" }, { path: { agent_id: "agent_abd" } }),
        request({ phone_number: "+48500100200" }, { method: "PUT" })
      ]
      for (const variant of variants) {
        expect(yield* fingerprint(variant)).not.toBe(base)
      }
    })
  )

  it.effect.prop(
    "equal exactly when the canonical bodies are equal",
    [FastCheck.jsonValue(), FastCheck.jsonValue()],
    ([x, y]) =>
      Effect.gen(function* () {
        const same = canonicalJson(x) === canonicalJson(y)
        expect((yield* fingerprint(request(x))) === (yield* fingerprint(request(y)))).toBe(same)
      })
  )
})
