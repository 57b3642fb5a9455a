import { describe, expect, it } from "@effect/vitest"
import { networkFailureCode } from "../../src/providers/ProviderExchanges.js"

describe("ProviderExchanges", () => {
  it("names a network failure by its code, on the error or a cause, never by its message", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:443"), { code: "ECONNREFUSED" })
    expect(networkFailureCode(refused)).toBe("ECONNREFUSED")
    // fetch's shape: a TypeError whose cause has the code
    expect(networkFailureCode(new TypeError("fetch failed", { cause: refused }))).toBe("ECONNREFUSED")
    // a code that is not an identifier (a DOMException's number, a sentence) is not one
    expect(networkFailureCode({ code: 20 })).toBeNull()
    expect(networkFailureCode({ code: "the host 10.0.0.7 refused" })).toBeNull()
    // at most three causes deep
    const deep = { cause: { cause: { cause: { code: "ETIMEDOUT" } } } }
    expect(networkFailureCode(deep)).toBe("ETIMEDOUT")
    expect(networkFailureCode({ cause: deep })).toBeNull()
    expect(networkFailureCode("ECONNRESET")).toBeNull()
    expect(networkFailureCode(null)).toBeNull()
  })
})
