import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"

describe("workspace", () => {
  it.effect("runs Effect tests", () => Effect.sync(() => expect(1 + 1).toBe(2)))
})
