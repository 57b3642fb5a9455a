/** ScriptAnalysis.analyze on the edge cases of real scripts: keys, lists, pairs, sections, quotes. */
import { describe, expect, it } from "@effect/vitest"
import { analyze } from "../../src/agents/ScriptAnalysis.js"
import { isRequest, encode, decode } from "./ScriptAnalysisFixtures.js"

describe("ScriptAnalysis.analyze", () => {
  describe("edge cases", () => {
    it("treats CRLF, CR and LF alike", () => {
      const lf = "Greeting: Hi\nSteps:\n- One\n- Two\n\nGoal: sell"
      expect(analyze(lf.replace(/\n/g, "\r\n"))).toEqual(analyze(lf))
      expect(analyze(lf.replace(/\n/g, "\r"))).toEqual(analyze(lf))
      expect(analyze(lf).agent.conversation_structure).toEqual(["One", "Two"])
      expect(analyze(lf).agent.agent_goal).toBe("sell")
    })

    it("counts tab indentation for continuation lines", () => {
      const result = analyze("Steps:\n1.\tIntro\n\tSay your name\n2.\tPitch")
      expect(result.agent.conversation_structure).toEqual([
        { title: "Intro", description: "Say your name" },
        "Pitch"
      ])
    })

    it("reads a script of only bullets as steps", () => {
      const result = analyze("- Introduce yourself\n* Ask about needs\n• Propose a meeting")
      expect(result.agent.conversation_structure).toEqual([
        "Introduce yourself",
        "Ask about needs",
        "Propose a meeting"
      ])
      expect(result.agent.greeting).toBe("Hello!")
    })

    it("ignores labels and headers without values, and empty items", () => {
      const result = analyze("Goal:\nPersona:\nSteps:\n- \n-\n1.\nAvoid:\n\nHello there")
      expect(result.agent.agent_goal).toBe("")
      expect(result.agent.persona).toBe("")
      expect(result.agent.conversation_structure).toEqual([])
      expect(result.agent.avoid_topics).toEqual([])
      expect(result.agent.greeting).toBe("Hello there")
    })

    it("takes the lines under an empty label as its value", () => {
      const result = analyze('Greeting:\n"Hi John: do you\nhave a minute?"\nGoal: sell')
      expect(result.agent.greeting).toBe("Hi John: do you have a minute?")
      expect(result.agent.agent_goal).toBe("sell")
    })

    it("appends repeated sections and keeps the first value of a repeated label", () => {
      const result = analyze(
        "Goal: first\nAvoid:\n- politics\n\nGoal: second\nAvoid:\n- religion\nFacts:\n- Price: 1\nFacts:\n- Price: 2"
      )
      expect(result.agent.avoid_topics).toEqual(["politics", "religion"])
      expect(result.agent.agent_goal).toBe("first")
      expect(result.facts).toEqual({ Price: "1" })
      expect(result.knowledge).toBe("Goal: second\nPrice: 2")
    })

    it("ends a section at a label after a blank line, not at a blank line before an item", () => {
      const result = analyze("Avoid:\n- politics\n\n- religion\n\nPersona: Ada\n- a step")
      expect(result.agent.avoid_topics).toEqual(["politics", "religion"])
      expect(result.agent.persona).toBe("Ada")
      expect(result.agent.conversation_structure).toEqual(["a step"])
    })

    it("ends a list section at prose after a blank line", () => {
      const result = analyze("Avoid:\n- politics\n\nThanks and goodbye.")
      expect(result.agent.avoid_topics).toEqual(["politics"])
      expect(result.agent.greeting).toBe("Thanks and goodbye.")
    })

    it("ends a list of phrases, fields or topics at an unbulleted header or label", () => {
      const result = analyze(
        "Required phrases:\n- This call is recorded.\nCollect: preferred time, email\nAvoid:\n- prices\nGoal: confirm"
      )
      expect(result.agent.required_phrases).toEqual(["This call is recorded."])
      expect(result.agent.data_fields).toEqual(["preferred time", "email"])
      expect(result.agent.avoid_topics).toEqual(["prices"])
      expect(result.agent.agent_goal).toBe("confirm")
    })

    it("keeps a `Header: value` line right inside a section as an item", () => {
      const result = analyze("Steps:\nGreeting: introduce yourself\nPlan: offer the plan")
      expect(result.agent.conversation_structure).toEqual([
        { title: "Greeting", description: "introduce yourself" },
        { title: "Plan", description: "offer the plan" }
      ])
      expect(result.agent.greeting).toBe("Hello!")
    })

    it("accepts Markdown headings and bold keys", () => {
      const result = analyze(
        "## Objections\n**Objection:** Too busy\n**Response**: Two minutes.\n\n**Goal:** sell"
      )
      expect(result.agent.objections).toEqual([{ objection: "Too busy", response: "Two minutes." }])
      expect(result.agent.agent_goal).toBe("sell")
    })

    it("strips surrounding quotes of every kind but keeps inner quotes", () => {
      const result = analyze(
        'Required phrases:\n- "Recorded call."\n- „Nagrywamy.”\n- “Smart.”\n- \'Single.\'\n- «Guillemets.»\n- "One" and "two"'
      )
      expect(result.agent.required_phrases).toEqual([
        "Recorded call.",
        "Nagrywamy.",
        "Smart.",
        "Single.",
        "Guillemets.",
        '"One" and "two"'
      ])
    })

    it("does not read URLs or times as labels", () => {
      const result = analyze("https://smile.example\nCall at 10:30 sharp")
      expect(result.agent.greeting).toBe("https://smile.example")
      expect(result.knowledge).toBe("Call at 10:30 sharp")
      expect(result.facts).toEqual({})
    })

    it("reads unknown short top-level keys as facts, long ones as free text", () => {
      const result = analyze("Company: Smile Clinic\nHi John, this is Ada: do you have a minute?")
      expect(result.facts).toEqual({ Company: "Smile Clinic" })
      expect(result.agent.greeting).toBe("Hi John, this is Ada: do you have a minute?")
    })

    it("keeps a __proto__ fact, which a decoded Record would drop, as knowledge", () => {
      const result = analyze("Facts:\n- __proto__: x\n- constructor: y")
      expect(Object.keys(result.facts)).toEqual(["constructor"])
      expect(result.knowledge).toBe("__proto__: x")
      expect(decode(encode(result))).toEqual(result)
    })

    it("reads a postal address as a fact, a form of address as the address form", () => {
      expect(analyze("Address: 1 Main Street").facts).toEqual({ Address: "1 Main Street" })
      expect(analyze("Address: 1 Main Street").agent.address_form).toBe("")
      expect(analyze("Address: Mr/Mrs and surname").agent.address_form).toBe("Mr/Mrs and surname")
    })

    it("reads the call direction in both languages", () => {
      expect(analyze("Direction: Inbound").agent.call_direction).toBe("inbound")
      expect(analyze("Direction: incoming calls").agent.call_direction).toBe("inbound")
      expect(analyze("Kierunek: połączenia przychodzące").agent.call_direction).toBe("inbound")
      expect(analyze("Kierunek: wychodzące").agent.call_direction).toBe("outbound")
      const unknown = analyze("Direction: sideways")
      expect(unknown.agent.call_direction).toBe("outbound")
      expect(unknown.knowledge).toBe("Direction: sideways")
    })

    it("reads pairs in every form", () => {
      const result = analyze(
        [
          "Objections:",
          '- "Not interested" → "May I ask one question?"',
          "Too expensive: We offer instalments.",
          "Customer: I'm busy",
          "Agent: It takes two minutes.",
          '- "Send me an email"',
          "  - Sure, what address?",
          "- Call me later",
          "",
          "FAQ:",
          "Question: Where?",
          "Answer: Warsaw",
          "  and Kraków.",
          "Do you work on Sundays?",
          "No.",
          "Parking? Yes => free"
        ].join("\n")
      )
      expect(result.agent.objections).toEqual([
        { objection: "Not interested", response: "May I ask one question?" },
        { objection: "Too expensive", response: "We offer instalments." },
        { objection: "I'm busy", response: "It takes two minutes." },
        { objection: "Send me an email", response: "Sure, what address?" },
        { objection: "Call me later", response: "" }
      ])
      expect(result.faq).toEqual([
        { question: "Where?", answer: "Warsaw and Kraków." },
        { question: "Do you work on Sundays?", answer: "No." },
        { question: "Parking? Yes", answer: "free" }
      ])
    })

    it("opens Objections or FAQ from a top-level pair line; keeps an orphan answer as knowledge", () => {
      const result = analyze(
        "Hi!\nObjection: Too busy\nResponse: Two minutes.\n\nGoal: sell\nQ: Price?\nA: Free.\n\nA: also free"
      )
      expect(result.agent.objections).toEqual([{ objection: "Too busy", response: "Two minutes." }])
      expect(result.faq).toEqual([{ question: "Price?", answer: "Free. also free" }])
      expect(result.agent.agent_goal).toBe("sell")
      expect(result.knowledge).toBe("")
      const orphan = analyze("Hi!\nAnswer: orphan")
      expect(orphan.faq).toEqual([])
      expect(orphan.knowledge).toBe("Answer: orphan")
    })

    it("reads data fields with types and custom fields", () => {
      const result = analyze(
        "Collect:\n- Age (number)\n- Newsletter (tak/nie): consent\n- Note (free form)\nCustom fields:\n- VIP (boolean)"
      )
      expect(result.agent.data_fields).toEqual([
        { name: "Age", type: "number" },
        { name: "Newsletter", description: "consent", type: "boolean" },
        "Note (free form)"
      ])
      expect(result.agent.custom_data_fields).toEqual([{ name: "VIP", type: "boolean" }])
    })

    it("stays linear on long pathological lines", () => {
      const n = 100_000
      for (const source of [
        `a${" ".repeat(n)}b`,
        `Collect:\n- ${"(a) ".repeat(n / 4)}x`,
        `Objections:\n${"a -> ".repeat(n / 5)}`,
        `Step${" ".repeat(n)}x`,
        "- a\n  b\n".repeat(n / 8)
      ]) {
        expect(isRequest(analyze(source))).toBe(true)
      }
    })

    it("cuts the agent name to 255 characters", () => {
      const result = analyze(`Name: ${"a".repeat(300)}`)
      expect(result.agent_name).toBe("a".repeat(255))
      expect(isRequest(result)).toBe(true)
    })
  })
})
