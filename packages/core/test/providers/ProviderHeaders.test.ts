import { describe, expect, it } from "@effect/vitest"
import { headerReader, retryAfterMs } from "../../src/providers/ProviderHeaders.js"

describe("ProviderHeaders", () => {
  it("reads headers as Node's clients give them as fetch's Headers.get reads them", () => {
    const headers = headerReader({ "retry-after": "3", "set-cookie": ["a=1", "b=2"], absent: undefined })
    expect(headers.get("Retry-After")).toBe("3")
    expect(headers.get("retry-after")).toBe("3")
    expect(headers.get("set-cookie")).toBe("a=1, b=2")
    expect(headers.get("absent")).toBeNull()
    expect(headers.get("x-other")).toBeNull()
    // the answers agree with fetch's own Headers over the same values
    const web = new Headers([
      ["retry-after", "3"],
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"]
    ])
    for (const name of ["retry-after", "RETRY-AFTER", "x-other"])
      expect(headers.get(name)).toBe(web.get(name))
  })

  it("says how long to wait: retry-after-ms first, then Retry-After's seconds or date, else nothing", () => {
    const now = Date.parse("2026-11-29T10:00:00Z")
    const wait = (headers: Record<string, string>) => retryAfterMs(headerReader(headers), now)
    expect(wait({ "retry-after-ms": "1500.2", "retry-after": "9" })).toBe(1501)
    expect(wait({ "retry-after": "2" })).toBe(2000)
    expect(wait({ "retry-after": "0.5" })).toBe(500)
    expect(wait({ "retry-after": "Sun, 29 Nov 2026 10:00:04 GMT" })).toBe(4000)
    expect(wait({ "retry-after": "Sun, 29 Nov 2026 09:00:00 GMT" })).toBe(0)
    expect(wait({ "retry-after": "-3" })).toBeNull()
    expect(wait({ "retry-after": "soon" })).toBeNull()
    expect(wait({ "retry-after": "" })).toBeNull()
    expect(wait({})).toBeNull()
  })
})
