import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { generate, schemaFile } from "../scripts/SchemaTypes.js"

describe("the console's API types", () => {
  it("are those of the OpenAPI document the server serves (else: npm run generate:console-types)", async () => {
    const committed = readFileSync(schemaFile, "utf8")
    const current = await generate()
    // one line of the first difference, so a failure says what changed
    const first = current.split("\n").findIndex((line, i) => line !== committed.split("\n")[i])
    expect(first, `src/api/Schema.d.ts is out of date from line ${first + 1}`).toBe(-1)
    expect(committed).toBe(current)
  }, 60_000)
})
