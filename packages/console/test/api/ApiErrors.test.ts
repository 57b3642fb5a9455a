import { describe, expect, it } from "@effect/vitest"
import { messageOf } from "../../src/api/ApiErrors.js"

describe("the API's error bodies as messages", () => {
  it("answers `detail` as the API wrote it", () => {
    expect(messageOf(401, { detail: "Invalid API key" })).toBe("Invalid API key")
    expect(messageOf(409, { detail: "The chat has ended" })).toBe("The chat has ended")
  })

  it("lists a 422's fields without the body/query/path prefix, one per issue", () => {
    expect(
      messageOf(422, {
        detail: [
          { loc: ["body", "script"], msg: "Field required", type: "missing" },
          { loc: ["query", "limit"], msg: "Input should be at most 100", type: "less_than_equal" },
          { loc: ["body", "agent", "data_fields", 0, "name"], msg: "Too long", type: "string_too_long" }
        ]
      })
    ).toBe("script: Field required; limit: Input should be at most 100; agent.data_fields.0.name: Too long")
    expect(messageOf(422, { detail: [{ loc: ["body"], msg: "Malformed JSON" }] })).toBe("Malformed JSON")
  })

  it("says the status when the body is not the API's (a proxy's page, nothing)", () => {
    expect(messageOf(502, "<html>Bad gateway</html>")).toBe("The server answered 502 (bad gateway).")
    expect(messageOf(418, undefined)).toBe("The server answered 418.")
    expect(messageOf(500, { detail: "" })).toBe("The server answered 500 (internal error).")
  })
})
