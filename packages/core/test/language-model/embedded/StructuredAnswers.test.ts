import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { GatheredField } from "../../../src/agents/Agent.js"
import * as CallAnalysis from "../../../src/analysis/CallAnalysis.js"
import * as SimulatedCall from "../../../src/calls/SimulatedCall.js"
import * as ImprovementSuggestions from "../../../src/improvements/ImprovementSuggestions.js"
import { structuredAnswer } from "../../../src/language-model/embedded/EmbeddedModel.js"
import type { ConversationGuide, GuideTranscript } from "../../../src/language-model/LanguageModel.js"
import { emptyGuide } from "../../../src/language-model/LanguageModel.js"
import { analysisSchema } from "./EmbeddedFixtures.js"

const analyse = (guide: ConversationGuide) =>
  Either.getOrThrow(
    structuredAnswer({
      name: CallAnalysis.name,
      schema: analysisSchema(guide.data_fields, guide.disposition_codes),
      messages: [],
      guide
    })
  ).value

const transcript = (
  run_id: number | null,
  ...turns: ReadonlyArray<readonly ["user" | "assistant", string]>
): GuideTranscript => ({
  run_id,
  turns: turns.map(([role, text]) => ({ role, text }))
})

const codes = {
  interested: "The customer wants a demo",
  not_interested: "The customer declined the offer",
  callback: "The customer asked to be called back later",
  no_answer: "Nobody answered or the call reached voicemail"
}

describe("StructuredAnswers: call_analysis", () => {
  it("gathers a simulated call's data back, with its disposition and a summary", () => {
    const fields: ReadonlyArray<GatheredField> = [
      { name: "first_name", description: null, type: "string" },
      { name: "email", description: null, type: "string" },
      { name: "phone", description: null, type: "string" },
      { name: "visit_date", description: null, type: "date" },
      { name: "guests", description: null, type: "number" },
      { name: "consent", description: null, type: "boolean" },
      { name: "address", description: null, type: "string" },
      { name: "call_time", description: null, type: "string" }
    ]
    const input = {
      phone_number: "+48500100200",
      agent_name: "Clinic",
      first_message: "Hello from the clinic.",
      plan: [{ title: "Confirm the visit", description: null }],
      initial_context: {},
      gathered_fields: fields,
      call_seconds: 60,
      now: new Date("2026-03-07T10:00:00Z")
    }
    const gathered = Object.fromEntries(
      fields.map((field) => [
        field.name,
        SimulatedCall.plausibleValue(field, {}, input.phone_number, input.now)
      ])
    )
    const turns = SimulatedCall.conversation(input, gathered).map(({ role, text }) => ({
      role: role === "user" ? ("user" as const) : ("assistant" as const),
      text
    }))
    const analysis = analyse({
      ...emptyGuide,
      plan: input.plan,
      data_fields: fields,
      disposition_codes: { completed: "All the data was collected", declined: "The customer declined" },
      transcripts: [{ run_id: 1, turns }]
    })
    expect(analysis.gathered_data).toEqual(gathered)
    expect(analysis.disposition).toBe("completed")
    expect(analysis.summary).toMatch(/^The conversation had \d+ turns/)
    expect(analysis.summary).toContain("The agent covered 1 of 1 plan steps (Confirm the visit).")
    expect(analysis.summary).toContain("It ended with the user saying goodbye.")
  })

  it("leaves what the conversation did not say null, and picks the code the conversation matches", () => {
    const fields: ReadonlyArray<GatheredField> = [
      { name: "email", description: null, type: "string" },
      { name: "age", description: "The customer's age", type: "number" }
    ]
    const guide = { ...emptyGuide, data_fields: fields, disposition_codes: codes }
    const declined = analyse({
      ...guide,
      transcripts: [
        transcript(
          1,
          ["assistant", "Would you like a demo?"],
          ["user", "No, I'm not interested."],
          ["assistant", "I understand. Goodbye!"]
        )
      ]
    })
    expect(declined).toMatchObject({
      gathered_data: { email: null, age: null },
      disposition: "not_interested"
    })
    expect(declined.summary).toContain("The user said they were not interested.")
    const wants = analyse({
      ...guide,
      transcripts: [
        transcript(2, ["assistant", "Would you like a demo?"], ["user", "Yes! my email is a@b.io"])
      ]
    })
    expect(wants).toMatchObject({ gathered_data: { email: "a@b.io", age: null }, disposition: "interested" })
    const later = analyse({
      ...guide,
      transcripts: [transcript(3, ["assistant", "Hi!"], ["user", "I'm busy, call me back tomorrow"])]
    })
    expect(later.disposition).toBe("callback")
    const silent = analyse({ ...guide, transcripts: [transcript(4, ["assistant", "Hello? Anyone there?"])] })
    expect(silent.disposition).toBe("no_answer")
    const nothing = analyse({ ...guide, transcripts: [] })
    expect(nothing).toEqual({
      gathered_data: { email: null, age: null },
      disposition: "no_answer",
      summary: "No conversation took place."
    })
  })

  it("falls back to the first code when nothing matches, and has no disposition without codes", () => {
    const guide = {
      ...emptyGuide,
      disposition_codes: { alpha: "Xyzzy", beta: "Plugh" },
      transcripts: [transcript(1, ["user", "hello"], ["assistant", "hi"])]
    }
    expect(analyse(guide).disposition).toBe("alpha")
    expect(analyse({ ...guide, disposition_codes: {} })).toEqual({
      gathered_data: {},
      summary:
        "The conversation had 2 turns: 1 by the agent and 1 by the user. It ended after the agent's last turn."
    })
  })

  it("reads the messages when the guide has no transcript, and keeps the summary within bounds", () => {
    const fields: ReadonlyArray<GatheredField> = Array.from({ length: 30 }, (_, i) => ({
      name: `note_${i}`,
      description: null,
      type: "string" as const
    }))
    const said = fields
      .map((field) => `my ${field.name.replace("_", " ")} is ${"long words ".repeat(8)}`)
      .join(". ")
    const analysis = Either.getOrThrow(
      structuredAnswer({
        name: CallAnalysis.name,
        schema: analysisSchema(fields, {}),
        messages: [{ role: "user", content: said }],
        guide: { ...emptyGuide, data_fields: fields }
      })
    ).value
    expect(analysis.gathered_data["note_3"]).toBe("long words ".repeat(8).trim())
    expect(analysis.summary.length).toBeLessThanOrEqual(CallAnalysis.summaryChars)
  })
})

describe("StructuredAnswers: improvement_suggestions", () => {
  const suggest = (guide: ConversationGuide) =>
    Either.getOrThrow(
      structuredAnswer({
        name: ImprovementSuggestions.name,
        schema: ImprovementSuggestions.schema,
        messages: [],
        guide
      })
    ).value.suggestions

  it("suggests answers to questions the agent could not answer, most frequent first, with their runs", () => {
    const unanswered = (run: number, question: string) =>
      transcript(run, ["user", `Hi. ${question}`], ["assistant", "I'm sorry, I don't have that information."])
    const suggestions = suggest({
      ...emptyGuide,
      transcripts: [
        unanswered(1, "Do you have parking?"),
        unanswered(2, "Do you accept cards?"),
        unanswered(3, "Do you accept cards?")
      ]
    })
    expect(suggestions).toEqual([
      {
        text: 'When a caller asks "Do you accept cards?", answer it from the knowledge base; if the answer is not there, say so and offer to pass the question on to a colleague.',
        rationale: `In 2 runs the agent could not answer "Do you accept cards?". Add the answer to the agent's knowledge base or prompt.`,
        source_run_id: 2
      },
      {
        text: 'When a caller asks "Do you have parking?", answer it from the knowledge base; if the answer is not there, say so and offer to pass the question on to a colleague.',
        rationale: `In run 1 the agent could not answer "Do you have parking?". Add the answer to the agent's knowledge base or prompt.`,
        source_run_id: 1
      }
    ])
  })

  it("suggests covering a plan step no run reached, and handling busy or uninterested users", () => {
    const suggestions = suggest({
      ...emptyGuide,
      plan: [
        { title: "Greet", description: null },
        { title: "Offer the discount", description: "Mention 10% off" }
      ],
      transcripts: [
        transcript(
          5,
          ["assistant", "Greet! Hello."],
          ["user", "I'm busy right now"],
          ["assistant", "What is your email?"]
        ),
        transcript(
          6,
          ["assistant", "Greet! Hello."],
          ["user", "Not interested"],
          ["assistant", "I understand, goodbye."]
        )
      ]
    })
    expect(suggestions.map((s) => [s.text, s.source_run_id])).toEqual([
      ['Cover the step "Offer the discount" (Mention 10% off) in every conversation before ending it.', 5],
      [
        "When a caller says they are busy, apologise, offer to call back at a time that suits them, and end the call politely.",
        5
      ]
    ])
  })

  it("suggests nothing when nothing is found, and at most three", () => {
    expect(
      suggest({
        ...emptyGuide,
        transcripts: [transcript(1, ["assistant", "Hello"], ["user", "Thanks, bye"])]
      })
    ).toEqual([])
    expect(suggest(emptyGuide)).toEqual([])
    const many = suggest({
      ...emptyGuide,
      transcripts: ["a", "b", "c", "d", "e"].map((word, i) =>
        transcript(i, ["user", `What about ${word}?`], ["assistant", "I don't know."])
      )
    })
    expect(many).toHaveLength(ImprovementSuggestions.maxSuggestions)
  })
})
