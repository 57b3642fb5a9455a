import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Schema } from "effect"
import { HttpApiConfig } from "../../src/tools/ToolDefinition.js"
import { build, secretArgumentNames } from "../../src/tools/ToolRequest.js"

const config = (fields: Record<string, unknown>) =>
  Schema.decodeUnknownSync(HttpApiConfig)({ url: "https://api.test/orders/{{id}}", method: "GET", ...fields })

describe("ToolRequest.build", () => {
  it("GET and DELETE send the arguments no URL placeholder read as query parameters, with no body", () => {
    for (const method of ["GET", "DELETE"] as const) {
      const built = Either.getOrThrow(build(config({ method }), { id: 7, q: "a b", all: true }, {}, null))
      expect(built).toEqual({
        method,
        url: "https://api.test/orders/7?q=a+b&all=true",
        headers: {},
        secrets: []
      })
    }
  })

  it("POST, PUT and PATCH send them as a JSON object body", () => {
    for (const method of ["POST", "PUT", "PATCH"] as const) {
      const built = Either.getOrThrow(build(config({ method }), { id: 7, n: 2.5 }, {}, null))
      expect(built).toEqual({
        method,
        url: "https://api.test/orders/7",
        headers: { "content-type": "application/json" },
        body: '{"n":2.5}',
        secrets: []
      })
    }
    expect(
      Either.getOrThrow(build(config({ method: "POST", url: "https://api.test/x" }), {}, {}, null)).body
    ).toBe("{}")
  })

  it("fills header values from arguments and initial context; the credential header wins over a definition header", () => {
    const built = Either.getOrThrow(
      build(
        config({ headers: { "X-Customer": "{{initial_context.customer}}-{{id}}", Authorization: "old" } }),
        { id: 1 },
        { customer: "c9" },
        ["authorization", "Bearer s3cret"]
      )
    )
    expect(built.headers).toEqual({ "x-customer": "c9-1", authorization: "Bearer s3cret" })
    // "old" was a secret header's value, and the credential's is what was sent
    expect(built.secrets).toEqual(["old", "Bearer s3cret"])
  })

  it("names what was sent in secret headers, and what filled their placeholders, as secrets", () => {
    const tool = config({
      headers: {
        Authorization: "Bearer {{token}}",
        "X-Api-Key": "{{key}}",
        "X-Tenant-Secret": "t={{initial_context.tenant}}",
        "X-Plain": "{{id}}"
      }
    })
    const built = Either.getOrThrow(
      build(tool, { id: 1, token: "tok-1", key: "k-2" }, { tenant: "ten-3" }, null)
    )
    expect([...built.secrets].sort()).toEqual(["Bearer tok-1", "k-2", "t=ten-3", "ten-3", "tok-1"])
    expect(secretArgumentNames(tool)).toEqual(["token", "key"])
  })

  it("refuses a header value with a line break, a bad header name, a dot segment and an unparsable URL", () => {
    expect(
      Either.isLeft(build(config({ headers: { "X-A": "{{id}}" } }), { id: "a\r\nX-Injected: 1" }, {}, null))
    ).toBe(true)
    expect(Either.isLeft(build(config({ headers: { "Bad Name": "v" } }), { id: 1 }, {}, null))).toBe(true)
    expect(Either.isLeft(build(config({}), { id: ".." }, {}, null))).toBe(true)
    const secretWithBreak = build(config({}), { id: "1" }, {}, ["authorization", "Bearer a\nb-secret"])
    expect(secretWithBreak).toEqual(
      Either.left("the credential's secret contains a line break or control character and cannot be sent")
    )
    expect(Either.isLeft(build(config({ url: "http://{{id}}" }), { id: "" }, {}, null))).toBe(true)
  })

  it.prop(
    "every argument arrives exactly once: in the path, or in the query (GET) or body (POST)",
    [
      FastCheck.dictionary(
        FastCheck.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
        FastCheck.oneof(FastCheck.string(), FastCheck.integer(), FastCheck.boolean())
      ),
      FastCheck.constantFrom("GET" as const, "POST" as const)
    ],
    ([args, method]) => {
      const built = Either.getOrThrow(build(config({ method, url: "https://api.test/x" }), args, {}, null))
      const url = new URL(built.url)
      const sent: Record<string, string> =
        method === "GET"
          ? Object.fromEntries(url.searchParams)
          : Object.fromEntries(Object.entries(JSON.parse(built.body!)).map(([k, v]) => [k, String(v)]))
      expect(sent).toEqual(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])))
    }
  )
})
