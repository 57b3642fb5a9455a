import { describe, expect, it } from "@effect/vitest"
import { FastCheck, Schema } from "effect"
import * as AgentFromScript from "../../src/agents/AgentFromScript.js"
import { CallScriptRequest } from "../../src/agents/CallScript.js"

const decode = Schema.decodeUnknownSync(CallScriptRequest)

const script = decode({
  agent: {
    agent_goal: "Book a free consultation with the clinic",
    call_direction: "outbound",
    greeting: "Hello {{initial_context.first_name}}, this is Ada from Smile Clinic.",
    conversation_structure: [
      "Introduce the clinic",
      { title: "Ask about needs", description: "Find out what treatment the caller wants" },
      { title: "Propose a date" }
    ],
    objections: [{ objection: "I have no time", response: "It only takes fifteen minutes." }],
    required_phrases: ["This call is recorded.", "  "],
    data_fields: [
      "Preferred date",
      { name: "Email address", type: "string", description: "To send the confirmation" }
    ],
    custom_data_fields: [
      { name: "preferred date", description: "duplicate key is ignored" },
      "Insurance number"
    ],
    avoid_topics: ["Prices of competitors"],
    persona: "A friendly receptionist",
    formality: "formal",
    address_form: "Pan/Pani"
  },
  facts: { "Opening hours": "Mon-Fri 8-18" },
  faq: [{ question: "Where are you?", answer: "Warsaw, Marszałkowska 1" }],
  knowledge: "The first consultation is free.",
  website: "https://smile.example",
  language: "pl",
  agent_voice: "ada"
})

describe("AgentFromScript.compose", () => {
  const composed = AgentFromScript.compose(script)
  const prompt = composed.workflow_definition.system_prompt

  it("makes the greeting the first message", () => {
    expect(composed.workflow_definition.first_message).toBe(script.agent.greeting)
  })

  it("makes the steps the conversation plan, in order", () => {
    const steps = composed.workflow_definition.nodes.filter((n) => n.type === "step")
    expect(steps.map((s) => s.title)).toEqual(["Introduce the clinic", "Ask about needs", "Propose a date"])
    expect(steps[1]?.description).toBe("Find out what treatment the caller wants")
    expect(composed.workflow_definition.edges).toEqual([
      { from: "start", to: "step_1" },
      { from: "step_1", to: "step_2" },
      { from: "step_2", to: "step_3" },
      { from: "step_3", to: "end" }
    ])
    expect(prompt).toContain("## Conversation plan\n1. Introduce the clinic\n2. Ask about needs: Find out")
  })

  it("gives required phrases and objection replies their own titled sections", () => {
    expect(prompt).toContain(
      '## Required phrases\nSay each of these phrases word for word at the right moment:\n- "This call is recorded."'
    )
    expect(prompt).toContain(
      '## Objection handling\n- When the caller says "I have no time", answer: "It only takes fifteen minutes."'
    )
    // the blank phrase is dropped, not rendered as an empty bullet
    expect(prompt).not.toContain('- ""')
  })

  it("uses every other input: persona, goal, tone, address form, knowledge, avoid-topics, data fields", () => {
    expect(prompt).toContain("Persona: A friendly receptionist")
    expect(prompt).toContain("Goal of the call: Book a free consultation with the clinic")
    expect(prompt).toContain("Tone: formal")
    expect(prompt).toContain("Address the caller as follows: Pan/Pani")
    expect(prompt).toContain('language with code "pl"')
    expect(prompt).toContain("- Opening hours: Mon-Fri 8-18")
    expect(prompt).toContain("Q: Where are you?\nA: Warsaw, Marszałkowska 1")
    expect(prompt).toContain("The first consultation is free.")
    expect(prompt).toContain("Website: https://smile.example")
    expect(prompt).toContain("## Topics to avoid")
    expect(prompt).toContain("- Prices of competitors")
    expect(composed.workflow_definition.gathered_fields).toEqual([
      { name: "preferred_date", description: "Preferred date", type: "string" },
      { name: "email_address", description: "To send the confirmation", type: "string" },
      { name: "insurance_number", description: "Insurance number", type: "string" }
    ])
    expect(composed.workflow_configurations.voice).toBe("ada")
    expect(composed.workflow_definition.language).toBe("pl")
  })

  it("names the agent from its goal when no name is given", () => {
    expect(composed.name).toBe("Book a free consultation with the clinic")
    expect(AgentFromScript.compose(decode({ agent: { greeting: "Hi" }, agent_name: "Ada" })).name).toBe("Ada")
    expect(AgentFromScript.defaultName("")).toBe("Call script agent")
    expect(AgentFromScript.defaultName("  confirm the   visit ")).toBe("Confirm the visit")
    const long = AgentFromScript.defaultName("word ".repeat(40))
    expect(long.length).toBeLessThanOrEqual(61)
    expect(long.endsWith("…")).toBe(true)
  })

  it("leaves out sections it has nothing for", () => {
    const minimal = AgentFromScript.compose(decode({ agent: { greeting: "Hi there" } }))
    expect(minimal.workflow_definition.system_prompt.match(/^## /gm)).toEqual(["## "])
    expect(minimal.workflow_definition.nodes.map((n) => n.type)).toEqual(["start", "end"])
    expect(minimal.workflow_definition.tools).toEqual([])
  })

  it("attaches a booking tool on the scheduler connection", () => {
    const booking = AgentFromScript.compose(
      decode({ agent: { greeting: "Hi" }, enable_booking: true, scheduler_connection_id: "conn_1" })
    )
    expect(booking.workflow_definition.tools).toEqual([
      { type: "booking", scheduler_connection_id: "conn_1" }
    ])
  })

  const text = FastCheck.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== "")

  it.prop(
    "greeting, plan, phrases and objections always land where they belong",
    {
      greeting: text,
      steps: FastCheck.array(text, { maxLength: 6 }),
      phrases: FastCheck.array(text, { maxLength: 4 }),
      objections: FastCheck.array(FastCheck.record({ objection: text, response: text }), { maxLength: 4 })
    },
    ({ greeting, steps, phrases, objections }) => {
      const request = decode({
        agent: { greeting, conversation_structure: steps, required_phrases: phrases, objections }
      })
      const result = AgentFromScript.compose(request)
      const prompt = result.workflow_definition.system_prompt
      expect(result.workflow_definition.first_message).toBe(greeting.trim())
      expect(result.workflow_definition.nodes.filter((n) => n.type === "step").map((n) => n.title)).toEqual(
        steps.map((s) => s.trim())
      )
      expect(prompt.includes("## Required phrases")).toBe(phrases.length > 0)
      expect(prompt.includes("## Objection handling")).toBe(objections.length > 0)
      for (const phrase of phrases) expect(prompt).toContain(`- "${phrase.trim()}"`)
      for (const o of objections) expect(prompt).toContain(`answer: "${o.response.trim()}"`)
      // the graph is one path from start to end through every step
      expect(result.workflow_definition.edges.length).toBe(result.workflow_definition.nodes.length - 1)
    }
  )
})

describe("CallScript.CallScriptRequest", () => {
  const decodeEither = Schema.decodeUnknownEither(CallScriptRequest, { errors: "all" })

  it("fills the documented defaults", () => {
    const request = decode({ agent: { greeting: "Hi" } })
    expect(request.language).toBe("en")
    expect(request.agent.call_direction).toBe("outbound")
    expect(request.agent.conversation_structure).toEqual([])
    expect(request.facts).toEqual({})
    expect(request.generate_with_ai).toBe(false)
  })

  it.each([
    [{}, "agent"],
    [{ agent: {} }, "greeting"],
    [{ agent: { greeting: "   " } }, "greeting"],
    [{ agent: { greeting: "Hi", call_direction: "sideways" } }, "call_direction"],
    [{ agent: { greeting: "Hi" }, language: "Polish!" }, "language"],
    [{ agent: { greeting: "Hi" }, enable_booking: true }, "scheduler_connection_id"],
    [{ agent: { greeting: "Hi", objections: [{ objection: "x" }] } }, "response"]
  ])("refuses %j", (input, field) => {
    const result = decodeEither(input)
    expect(result._tag).toBe("Left")
    if (result._tag === "Left") expect(result.left.message).toContain(field)
  })
})
