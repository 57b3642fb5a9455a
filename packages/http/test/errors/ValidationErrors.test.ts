import { describe, expect, it } from "@effect/vitest"
import { mergeAlternatives } from "../../src/errors/ValidationErrors.js"

describe("ValidationErrors.mergeAlternatives", () => {
  it("merges one-issue-per-literal into one issue per field", () => {
    expect(
      mergeAlternatives([
        { loc: ["query", "status"], msg: 'Expected "active", actual "gone"', type: "type_error" },
        { loc: ["query", "status"], msg: 'Expected "archived", actual "gone"', type: "type_error" },
        { loc: ["query", "page"], msg: "Expected a number", type: "value_error" }
      ])
    ).toEqual([
      { loc: ["query", "status"], msg: 'Expected "active" | "archived", actual "gone"', type: "type_error" },
      { loc: ["query", "page"], msg: "Expected a number", type: "value_error" }
    ])
  })

  it("keeps issues of different fields apart", () => {
    const issues = [
      { loc: ["body", "a"], msg: 'Expected "x", actual 1', type: "type_error" },
      { loc: ["body", "b"], msg: 'Expected "y", actual 1', type: "type_error" }
    ]
    expect(mergeAlternatives(issues)).toEqual(issues)
  })
})
