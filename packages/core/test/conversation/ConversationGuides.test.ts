import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as AgentFunctions from "../../src/conversation/AgentFunctions.js"
import { boundedKnowledge, systemMessage } from "../../src/conversation/ConversationEngine.js"
import * as ConversationGuides from "../../src/conversation/ConversationGuides.js"
import * as ConversationLimits from "../../src/conversation/ConversationLimits.js"
import { definition, endCall, httpApi, tool } from "./AgentFixtures.js"

const highSurrogate = /[\uD800-\uDBFF]$/

describe("ConversationGuides.of", () => {
  const version = definition({
    first_message: "Hello from the shop",
    nodes: [
      { id: "start", type: "start", title: "Start", description: null },
      { id: "s1", type: "step", title: "Greet", description: "Say hello" },
      { id: "s2", type: "step", title: "Find the order", description: null },
      { id: "end", type: "end", title: "End", description: null }
    ],
    gathered_fields: [{ name: "order_id", description: "The order", type: "string" }]
  })
  const functions = AgentFunctions.of([
    tool("Check order", httpApi({ trigger_phrases: ["where is my order"] })),
    tool("Weather", httpApi()),
    tool("Bye", endCall),
    tool("Bye again", endCall)
  ])

  it("gathers the plan, fields, triggers, end function, FAQ of prompt and knowledge, and codes", () => {
    const guide = ConversationGuides.of({
      definition: version,
      system_prompt: "You sell shoes.\nQ: Open on Sunday?\nA: No.",
      first_message: "Hello, Ala",
      functions,
      knowledge: ["Question: Returns?\nAnswer: Within 30 days.", "Plain text"],
      disposition_codes: { sold: "The caller bought", callback: null, other: { note: 1 } }
    })
    expect(guide).toEqual({
      first_message: "Hello, Ala",
      plan: [
        { title: "Greet", description: "Say hello" },
        { title: "Find the order", description: null }
      ],
      faq: [
        { question: "Open on Sunday?", answer: "No." },
        { question: "Returns?", answer: "Within 30 days." }
      ],
      knowledge: ["Question: Returns?\nAnswer: Within 30 days.", "Plain text"],
      data_fields: [{ name: "order_id", description: "The order", type: "string" }],
      triggers: { check_order: ["where is my order"] },
      end_function: "bye",
      disposition_codes: { sold: "The caller bought", callback: "", other: '{"note":1}' },
      transcripts: []
    })
  })

  it("has no end function without an end-call tool", () => {
    const guide = ConversationGuides.of({
      definition: version,
      system_prompt: "",
      first_message: "",
      functions: functions.slice(0, 2),
      knowledge: [],
      disposition_codes: {}
    })
    expect(guide.end_function).toBeNull()
    expect(guide.faq).toEqual([])
    expect(guide.disposition_codes).toEqual({})
  })
})

describe("ConversationEngine.boundedKnowledge", () => {
  it("keeps the chunks trimmed, in order, leaving out blank ones", () => {
    expect(boundedKnowledge(["  first \n", " ", "second", ""])).toEqual(["first", "second"])
    expect(boundedKnowledge([])).toEqual([])
  })

  it("cuts the chunk that reaches the bound and leaves out the rest", () => {
    const half = ConversationLimits.knowledgeChars / 2
    expect(boundedKnowledge(["a".repeat(half), "b".repeat(half + 10), "c"])).toEqual([
      "a".repeat(half),
      "b".repeat(half)
    ])
  })

  it("never splits a character: an emoji straddling the bound is left out whole", () => {
    const kept = boundedKnowledge([`${"a".repeat(ConversationLimits.knowledgeChars - 1)}😀 more`])
    expect(kept).toEqual(["a".repeat(ConversationLimits.knowledgeChars - 1)])
  })

  it.prop(
    "together within the bound, each the start of a chunk, in the chunks' order, whole when all fit",
    [
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.string({ unit: "grapheme", maxLength: 3000 }),
          FastCheck.string({ maxLength: 40 }),
          FastCheck.constantFrom("😀".repeat(1500), "  ", "x".repeat(ConversationLimits.knowledgeChars - 1))
        ),
        { maxLength: 6 }
      )
    ],
    ([chunks]) => {
      const kept = boundedKnowledge(chunks)
      expect(kept.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(
        ConversationLimits.knowledgeChars
      )
      let from = 0
      for (const text of kept) {
        expect(text).not.toBe("")
        expect(text).not.toMatch(highSurrogate)
        const index = chunks.findIndex((chunk, i) => i >= from && chunk.trim().startsWith(text))
        expect(index).toBeGreaterThanOrEqual(from)
        from = index + 1
      }
      const whole = chunks.map((chunk) => chunk.trim()).filter((chunk) => chunk !== "")
      if (whole.reduce((sum, text) => sum + text.length, 0) <= ConversationLimits.knowledgeChars) {
        expect(kept).toEqual(whole)
      }
    }
  )
})

describe("ConversationEngine.systemMessage", () => {
  it("is the prompt alone without knowledge", () => {
    expect(systemMessage("You are the shop's agent.", [])).toBe("You are the shop's agent.")
  })

  it("adds the knowledge for this message after the prompt, the chunks apart", () => {
    expect(systemMessage("Prompt.", ["One.", "Two."])).toBe(
      "Prompt.\n\n## Knowledge for this message\nAnswer from it when it answers the user; do not read it out unasked.\n\nOne.\n\n---\n\nTwo."
    )
  })
})
