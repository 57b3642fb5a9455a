import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import type { WorkflowDefinition } from "../../src/agents/Agent.js"
import * as DefinitionChanges from "../../src/agents/DefinitionChanges.js"

const current: WorkflowDefinition = {
  system_prompt: "Be kind.",
  first_message: "Hello",
  language: "en",
  nodes: [],
  edges: [],
  gathered_fields: [],
  tools: [
    { type: "tool", tool_uuid: "a" },
    { type: "booking", scheduler_connection_id: "cal" }
  ]
}

describe("DefinitionChanges", () => {
  it("replaces the given fields, keeps the others and the booking tool", () => {
    expect(DefinitionChanges.apply(current, { tools: ["b", "c"], first_message: "Hi" })).toEqual({
      ...current,
      first_message: "Hi",
      tools: [
        { type: "tool", tool_uuid: "b" },
        { type: "tool", tool_uuid: "c" },
        { type: "booking", scheduler_connection_id: "cal" }
      ]
    })
    expect(DefinitionChanges.apply(current, {})).toEqual(current)
    expect(DefinitionChanges.isEmpty({})).toBe(true)
    expect(DefinitionChanges.isEmpty({ tools: [] })).toBe(false)
  })

  it("normalises transfer numbers to E.164 without repeats and names the first invalid one", () => {
    expect(
      DefinitionChanges.deduplicatedWithE164Numbers({
        transfer_numbers: ["+48 500 000 111", "+48500000111"],
        tools: ["x", "x"]
      })
    ).toEqual(Either.right({ transfer_numbers: ["+48500000111"], tools: ["x"] }))
    const refused = DefinitionChanges.deduplicatedWithE164Numbers({
      transfer_numbers: ["+48500000111", "12", "nope"]
    })
    expect(Either.isLeft(refused) && refused.left.index).toBe(1)
  })

  const changes = FastCheck.record(
    {
      system_prompt: FastCheck.string(),
      first_message: FastCheck.string(),
      tools: FastCheck.array(FastCheck.constantFrom("a", "b", "c", "d")),
      transfer_numbers: FastCheck.array(FastCheck.constantFrom("+48500000111", "+12025550143"))
    },
    { requiredKeys: [] }
  )

  it.prop(
    "a change sets exactly what it names: the rest is the current version's, bookings always survive",
    [changes],
    ([change]) => {
      const next = DefinitionChanges.apply(current, change)
      expect(next.system_prompt).toBe(change.system_prompt ?? current.system_prompt)
      expect(next.first_message).toBe(change.first_message ?? current.first_message)
      expect(next.language).toBe(current.language)
      expect(DefinitionChanges.toolUuidsOf(next)).toEqual(change.tools ?? ["a"])
      expect(next.tools.filter((ref) => ref.type === "booking")).toHaveLength(1)
      expect(next.transfer_numbers).toEqual(change.transfer_numbers)
    }
  )
})
