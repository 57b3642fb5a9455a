import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as AnalysisRequests from "../../src/analysis/AnalysisRequests.js"
import * as CallAnalysis from "../../src/analysis/CallAnalysis.js"
import * as ImprovementSuggestions from "../../src/improvements/ImprovementSuggestions.js"
import type { ModelMessage } from "../../src/language-model/LanguageModel.js"
import { agent, definition, said } from "../conversation/AgentFixtures.js"

const leftOut = "(the conversation's beginning is left out)\n"
const lowSurrogateFirst = /^[\uDC00-\uDFFF]/

const contentOf = (messages: ReadonlyArray<ModelMessage>, role: "system" | "user") =>
  messages.find((m) => m.role === role)!.content

const anyFragments = FastCheck.array(
  FastCheck.record({
    role: FastCheck.constantFrom("user" as const, "assistant" as const),
    text: FastCheck.oneof(
      FastCheck.string({ maxLength: 60 }),
      FastCheck.string({ unit: "binary", maxLength: 60 }),
      FastCheck.constantFrom("😀😀😀", "line one\nline two", "")
    )
  }),
  { maxLength: 12 }
).map((fragments) => fragments.map(({ role, text }, i) => said(role, text, i)))

describe("AnalysisRequests.conversationText", () => {
  const fragments = [
    said("assistant", "Hello", 0),
    said("user", "I want shoes", 1),
    said("assistant", "Size?", 2)
  ]

  it("writes one line per message, whole when it fits", () => {
    expect(AnalysisRequests.conversationText(fragments, 1_000)).toBe(
      "assistant: Hello\nuser: I want shoes\nassistant: Size?"
    )
    expect(AnalysisRequests.conversationText([], 10)).toBe("")
  })

  it("keeps the end that fits, starting on a whole line, and says the beginning is left out", () => {
    // the last two lines are 35 characters with their newline
    expect(AnalysisRequests.conversationText(fragments, 40)).toBe(
      `${leftOut}user: I want shoes\nassistant: Size?`
    )
    expect(AnalysisRequests.conversationText(fragments, 34)).toBe(`${leftOut}assistant: Size?`)
  })

  it("keeps a line that fits exactly", () => {
    expect(AnalysisRequests.conversationText(fragments, 35)).toBe(
      `${leftOut}user: I want shoes\nassistant: Size?`
    )
    expect(AnalysisRequests.conversationText(fragments, 16)).toBe(`${leftOut}assistant: Size?`)
  })

  it("keeps the end of a last line longer than the bound, never half a character", () => {
    const long = [said("user", `${"a".repeat(20)}😀${"b".repeat(9)}`, 0)]
    expect(AnalysisRequests.conversationText(long, 10)).toBe(`${leftOut}${"b".repeat(9)}`)
    expect(AnalysisRequests.conversationText(long, 11)).toBe(`${leftOut}😀${"b".repeat(9)}`)
    expect(AnalysisRequests.conversationText(long, 12)).toBe(`${leftOut}a😀${"b".repeat(9)}`)
  })

  it.prop(
    "the end of the conversation within the bound, from the start of a line when one fits, no character split",
    [anyFragments, FastCheck.integer({ min: 1, max: 400 })],
    ([fragments, limit]) => {
      const whole = fragments.map((f) => `${f.role}: ${f.text}`).join("\n")
      const text = AnalysisRequests.conversationText(fragments, limit)
      if (whole.length <= limit) {
        expect(text).toBe(whole)
        return
      }
      expect(text.startsWith(leftOut)).toBe(true)
      const kept = text.slice(leftOut.length)
      expect(kept.length).toBeLessThanOrEqual(limit)
      expect(whole.endsWith(kept)).toBe(true)
      const start = whole.length - kept.length
      const lineStarts = [...whole.matchAll(/\n/g)].map((m) => m.index + 1)
      const fitting = lineStarts.filter((at) => whole.length - at <= limit)
      if (fitting.length > 0) expect(start).toBe(Math.min(...fitting))
      else {
        expect(kept).not.toMatch(lowSurrogateFirst)
        expect(whole.length - start).toBeGreaterThanOrEqual(limit - 1)
      }
    }
  )
})

describe("AnalysisRequests.callAnalysis", () => {
  const shop = agent({
    call_disposition_codes: { sold: "The caller bought", lost: null },
    workflow_configurations: {
      max_call_duration_seconds: 600,
      transfer_numbers: [],
      voice: null,
      model: { model: "small-model", temperature: 0.2 }
    }
  })
  const version = definition({
    nodes: [{ id: "s1", type: "step", title: "Greet", description: null }],
    gathered_fields: [{ name: "size", description: null, type: "number" }]
  })
  const fragments = [said("assistant", "Hello", 0), said("user", "Size 42 please", 1)]

  it("asks for call_analysis of the run with the agent's model, fields, codes, prompt and conversation", () => {
    const request = AnalysisRequests.callAnalysis({
      runId: 41,
      agent: shop,
      definition: version,
      system_prompt: "You sell shoes to Ala.",
      fragments
    })
    expect(request.name).toBe(CallAnalysis.name)
    expect(request).toMatchObject({ model: "small-model", temperature: 0.2 })
    expect(request).not.toHaveProperty("max_tokens")
    expect(request.messages.map((m) => m.role)).toEqual(["system", "user"])
    expect(contentOf(request.messages, "system")).toContain("You sell shoes to Ala.")
    expect(contentOf(request.messages, "system")).toContain("disposition")
    expect(contentOf(request.messages, "user")).toBe(
      "The conversation:\nassistant: Hello\nuser: Size 42 please"
    )
    expect(request.guide).toEqual({
      first_message: "",
      plan: [{ title: "Greet", description: null }],
      faq: [],
      knowledge: [],
      data_fields: [{ name: "size", description: null, type: "number" }],
      triggers: {},
      end_function: null,
      disposition_codes: { sold: "The caller bought", lost: "" },
      transcripts: [
        {
          run_id: 41,
          turns: [
            { role: "assistant", text: "Hello" },
            { role: "user", text: "Size 42 please" }
          ]
        }
      ]
    })
  })

  it("asks for no disposition when the agent has no codes", () => {
    const request = AnalysisRequests.callAnalysis({
      runId: 41,
      agent: agent(),
      definition: version,
      system_prompt: "Prompt",
      fragments
    })
    expect(contentOf(request.messages, "system")).not.toContain("disposition")
    expect(request.guide!.disposition_codes).toEqual({})
    expect(request).not.toHaveProperty("model")
  })

  it.prop(
    "a bounded request of the run's own conversation and prompt, whatever their length",
    [anyFragments, FastCheck.string({ maxLength: 10_000 })],
    ([fragments, prompt]) => {
      const long = [...fragments, said("user", "x".repeat(50_000), 99)]
      const request = AnalysisRequests.callAnalysis({
        runId: 5,
        agent: shop,
        definition: version,
        system_prompt: prompt,
        fragments: long
      })
      const system = contentOf(request.messages, "system")
      const user = contentOf(request.messages, "user")
      expect(system.length).toBeLessThanOrEqual(1_000 + AnalysisRequests.promptChars)
      expect(system).toContain(
        prompt.length <= AnalysisRequests.promptChars ? prompt : "(the rest of the prompt is left out)"
      )
      expect(user.length).toBeLessThanOrEqual(100 + AnalysisRequests.analysisTranscriptChars)
      expect(user.endsWith("x".repeat(1_000))).toBe(true)
      expect(request.guide!.transcripts).toEqual([AnalysisRequests.guideTranscript(5, long)])
    }
  )
})

describe("AnalysisRequests.improvementSuggestions", () => {
  const version = definition({ system_prompt: "You sell shoes.", first_message: "Hi there" })
  const run = (run_id: number, text: string) => ({ run_id, fragments: [said("user", text, run_id)] })

  it("asks for improvement_suggestions over the recent runs, naming the pending suggestions", () => {
    const request = AnalysisRequests.improvementSuggestions({
      agent: agent(),
      definition: version,
      runs: [run(9, "Do you have red ones?"), run(8, "Too expensive")],
      pending: ["Mention the sale."]
    })
    expect(request.name).toBe(ImprovementSuggestions.name)
    expect(request.schema).toBe(ImprovementSuggestions.schema)
    const user = contentOf(request.messages, "user")
    expect(user).toBe(
      [
        "System prompt:",
        "You sell shoes.",
        "",
        "Pending suggestions:",
        "- Mention the sale.",
        "",
        "Recent conversations:",
        "### Run 9\nuser: Do you have red ones?",
        "### Run 8\nuser: Too expensive"
      ].join("\n")
    )
    expect(request.guide!.first_message).toBe("Hi there")
    expect(request.guide!.transcripts.map((t) => t.run_id)).toEqual([9, 8])
  })

  it("reads at most improvementRuns runs, the first given, each cut to its bound", () => {
    const runs = Array.from({ length: 15 }, (_, i) =>
      run(100 - i, `${"y".repeat(10_000)} end of run ${100 - i}`)
    )
    const request = AnalysisRequests.improvementSuggestions({
      agent: agent(),
      definition: version,
      runs,
      pending: []
    })
    const user = contentOf(request.messages, "user")
    expect(request.guide!.transcripts.map((t) => t.run_id)).toEqual(runs.slice(0, 10).map((r) => r.run_id))
    expect(user).toContain("end of run 91")
    expect(user).not.toContain("### Run 90")
    expect(user).not.toContain("Pending suggestions")
    expect(user.length).toBeLessThanOrEqual(
      200 +
        AnalysisRequests.promptChars +
        AnalysisRequests.improvementRuns * (100 + AnalysisRequests.improvementTranscriptChars)
    )
  })

  it.prop(
    "only the given runs, in the given order, and the agent's own prompt",
    [
      FastCheck.uniqueArray(FastCheck.integer({ min: 1, max: 1_000 }), { maxLength: 14 }),
      FastCheck.string({ maxLength: 9_000 })
    ],
    ([ids, prompt]) => {
      const request = AnalysisRequests.improvementSuggestions({
        agent: agent(),
        definition: definition({ system_prompt: prompt }),
        runs: ids.map((id) => run(id, `said in run ${id}`)),
        pending: []
      })
      const read = ids.slice(0, AnalysisRequests.improvementRuns)
      expect(request.guide!.transcripts.map((t) => t.run_id)).toEqual(read)
      const user = contentOf(request.messages, "user")
      expect([...user.matchAll(/^### Run (\d+)$/gm)].map((m) => Number(m[1]))).toEqual(read)
      for (const id of ids)
        expect(user.includes(`said in run ${id}\n`) || user.endsWith(`said in run ${id}`)).toBe(
          read.includes(id)
        )
      expect(user).toContain(
        prompt.length <= AnalysisRequests.promptChars ? prompt : "(the rest of the prompt is left out)"
      )
    }
  )
})
