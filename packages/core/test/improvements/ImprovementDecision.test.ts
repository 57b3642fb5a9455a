import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck } from "effect"
import type { WorkflowDefinition } from "../../src/agents/Agent.js"
import { AgentId } from "../../src/agents/AgentIds.js"
import type { Improvement, ImprovementStatus } from "../../src/improvements/Improvement.js"
import { ImprovementId } from "../../src/improvements/Improvement.js"
import * as ImprovementDecision from "../../src/improvements/ImprovementDecision.js"
import { OrganizationId } from "../../src/organizations/Organization.js"

const improvement = (status: ImprovementStatus, text = "Always confirm the date twice."): Improvement => ({
  id: ImprovementId.make(1),
  organization_id: OrganizationId.make(1),
  agent_id: AgentId.make(1),
  status,
  text,
  rationale: null,
  source_run_id: null,
  created_at: new Date("2026-01-01T00:00:00Z"),
  decided_at: null,
  applied_definition_id: null
})

const definition: WorkflowDefinition = {
  system_prompt: "You are Ada.",
  first_message: "Hello",
  language: "en",
  nodes: [],
  edges: [],
  gathered_fields: [],
  tools: []
}

const now = new Date("2026-03-01T10:00:00Z")

describe("ImprovementDecision", () => {
  it("moves a pending suggestion to accepted or dismissed and stamps the time", () => {
    for (const decision of ["accepted", "dismissed"] as const) {
      const result = ImprovementDecision.decide(improvement("pending"), decision, now)
      expect(result).toEqual(Either.right({ ...improvement("pending"), status: decision, decided_at: now }))
    }
  })

  it("refuses to decide a decided suggestion again", () => {
    for (const status of ["accepted", "dismissed"] as const) {
      for (const decision of ["accepted", "dismissed"] as const) {
        const result = ImprovementDecision.decide(improvement(status), decision, now)
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) expect(result.left.status).toBe(status)
      }
    }
  })

  it("appends the text after a blank line and changes nothing else", () => {
    const applied = ImprovementDecision.applyTo(definition, "Always confirm the date twice.")
    expect(applied.system_prompt).toBe("You are Ada.\n\nAlways confirm the date twice.")
    expect({ ...applied, system_prompt: definition.system_prompt }).toEqual(definition)
  })

  it.prop(
    "the new prompt is the old prompt, the separator and the text, in that order",
    [FastCheck.string(), FastCheck.string()],
    ([prompt, text]) => {
      const applied = ImprovementDecision.applyTo({ ...definition, system_prompt: prompt }, text)
      expect(applied.system_prompt).toBe(`${prompt}\n\n${text}`)
      expect(applied.system_prompt.startsWith(prompt)).toBe(true)
      expect(applied.system_prompt.endsWith(text)).toBe(true)
    }
  )

  it.prop(
    "only a pending suggestion can be decided",
    [
      FastCheck.constantFrom<ImprovementStatus>("pending", "accepted", "dismissed"),
      FastCheck.constantFrom("accepted" as const, "dismissed" as const)
    ],
    ([status, decision]) => {
      expect(Either.isRight(ImprovementDecision.decide(improvement(status), decision, now))).toBe(
        status === "pending"
      )
    }
  )
})
