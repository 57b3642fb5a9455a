import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ToolCallLog from "../../src/tools/ToolCallLog.js"
import type { ToolResult } from "../../src/tools/ToolResult.js"

// half of a surrogate pair: text PostgreSQL refuses in JSON
const loneSurrogate = /\p{Cs}/u

const tool = { tool_uuid: "t-1", type: "http_api" }
const result = (response: unknown, ok = true): ToolResult => ({
  ok,
  status_code: ok ? 200 : 500,
  duration_ms: 12.6,
  response,
  message: null,
  error: ok ? null : { type: "http_status", detail: "the receiver answered with status 500" }
})

describe("ToolCallLog.record", () => {
  it("masks secret-looking arguments, scrubs secrets and their values from the response, cuts it to 4 KiB", () => {
    const entry = ToolCallLog.record(
      tool,
      { order: "A-1", api_key: "k-123456", password: "hunter2" },
      result({ echo: "Bearer s3cr3t-value", url: "/x?password=hunter2&key=k-123456", big: "x".repeat(5000) }),
      ["s3cr3t-value"]
    )
    expect(entry).toMatchObject({
      tool_uuid: "t-1",
      tool_type: "http_api",
      arguments: { order: "A-1", api_key: "****", password: "****" },
      outcome: "ok",
      error_type: null,
      status_code: 200,
      duration_ms: 13,
      response_truncated: true
    })
    expect(entry.response).toHaveLength(ToolCallLog.maxLoggedResponseChars)
    expect(entry.response).toContain('"echo":"Bearer ****"')
    expect(entry.response).toContain("password=****&key=****")
  })

  it("masks an argument a secret header reads, whatever its name, and scrubs its value from the response", () => {
    const entry = ToolCallLog.record(
      tool,
      { key: "k-777888999", order: "A-1" },
      result({ echo: "k-777888999" }),
      [],
      ["key"]
    )
    expect(entry.arguments).toEqual({ key: "****", order: "A-1" })
    expect(entry.response).toBe('{"echo":"****"}')
  })

  it("keeps arguments up to 4 KiB of JSON: a long string is cut on a character boundary, later ones left out", () => {
    const entry = ToolCallLog.record(
      tool,
      { order: "A-1", note: `${"n".repeat(5000)}`, count: 3 },
      result(null),
      []
    )
    expect(entry.arguments_truncated).toBe(true)
    expect(JSON.stringify(entry.arguments)).toHaveLength(ToolCallLog.maxLoggedArgumentsChars)
    expect(entry.arguments).toEqual({
      order: "A-1",
      note: "n".repeat(4096 - '{"order":"A-1","note":""}'.length)
    })
    // `{"note":"` is 9 characters: the emoji's first half would be the 4086th
    const emoji = ToolCallLog.record(tool, { note: `${"y".repeat(4084)}😀 and more` }, result(null), [])
    expect(emoji.arguments).toEqual({ note: "y".repeat(4084) })
    expect(ToolCallLog.record(tool, { order: "A-1" }, result(null), []).arguments_truncated).toBe(false)
  })

  it.prop(
    "whatever the arguments, at most 4 KiB of valid JSON text is kept, each kept value whole or a string's start",
    [
      FastCheck.dictionary(FastCheck.stringMatching(/^[a-z]{1,12}$/), FastCheck.jsonValue(), { maxKeys: 40 }),
      FastCheck.string({ unit: "binary", maxLength: 3000 })
    ],
    ([args, text]) => {
      const given = { ...args, text, again: text }
      const { arguments: kept, truncated } = ToolCallLog.boundedArguments(given)
      const json = JSON.stringify(kept)
      expect(json.length).toBeLessThanOrEqual(ToolCallLog.maxLoggedArgumentsChars)
      expect(truncated).toBe(JSON.stringify(given).length > ToolCallLog.maxLoggedArgumentsChars)
      for (const [name, value] of Object.entries(kept)) {
        const original = (given as Record<string, unknown>)[name]
        if (typeof value === "string" && value !== original) {
          expect((original as string).startsWith(value)).toBe(true)
          expect(value).not.toMatch(/[\uD800-\uDBFF]$/)
        } else {
          expect(value).toEqual(original)
        }
      }
    }
  )

  it("keeps a failure's type and a missing response as null", () => {
    const entry = ToolCallLog.record(tool, {}, result(null, false), [])
    expect(entry).toMatchObject({
      outcome: "error",
      error_type: "http_status",
      response: null,
      response_truncated: false
    })
    expect(ToolCallLog.message("Lookup", entry)).toBe("Tool Lookup (http_api) failed in 13 ms: http_status")
  })

  it("cuts the response on a character boundary: an emoji straddling the 4 KiB limit is left out whole", () => {
    // `{"big":"` is 8 characters, so the emoji's first half is character 4096 (index 4095)
    const entry = ToolCallLog.record(tool, {}, result({ big: `${"x".repeat(4087)}😀 and more` }), [])
    expect(entry.response).toBe(`{"big":"${"x".repeat(4087)}`)
    expect(entry.response_truncated).toBe(true)
    expect(entry.response).not.toMatch(loneSurrogate)
  })

  it.prop(
    "whatever the answer, the kept response is valid UTF-16 (no half of a surrogate pair) within 4 KiB",
    [FastCheck.jsonValue(), FastCheck.nat({ max: 5000 })],
    ([response, padding]) => {
      const entry = ToolCallLog.record(
        tool,
        {},
        result({ pad: "x".repeat(padding), e: "😀".repeat(8), response }),
        []
      )
      expect((entry.response ?? "").length).toBeLessThanOrEqual(ToolCallLog.maxLoggedResponseChars)
      expect(entry.response ?? "").not.toMatch(loneSurrogate)
    }
  )

  it.prop(
    // secrets of letters and digits, starting with letters: no JSON number, literal or punctuation spells one
    "whatever the answer, the kept response is at most 4 KiB and shows no secret",
    [FastCheck.jsonValue(), FastCheck.stringMatching(/^[a-z]{4}[0-9A-Za-z]{4,16}$/)],
    ([response, secret]) => {
      const entry = ToolCallLog.record(tool, { token: secret }, result({ response, echo: `${secret}!` }), [
        secret
      ])
      expect((entry.response ?? "").length).toBeLessThanOrEqual(ToolCallLog.maxLoggedResponseChars)
      expect(entry.arguments).toEqual({ token: "****" })
      expect(entry.response).not.toContain(secret)
    }
  )
})
