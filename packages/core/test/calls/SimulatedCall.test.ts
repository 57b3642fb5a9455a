import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { GatheredField } from "../../src/agents/Agent.js"
import type { ScriptedStep, SimulatedCallInput } from "../../src/calls/SimulatedCall.js"
import * as SimulatedCall from "../../src/calls/SimulatedCall.js"

const now = new Date("2026-02-10T11:00:00.000Z")

const input = (overrides: Partial<SimulatedCallInput> = {}): SimulatedCallInput => ({
  phone_number: "+48500100200",
  agent_name: "Clinic assistant",
  first_message: "Hello Ola!",
  plan: [
    { title: "Confirm the appointment", description: "Tuesday at 10:00" },
    { title: "Say goodbye", description: null }
  ],
  initial_context: { first_name: "Ola", phone_number: "+48500100200", customer: { id: 7 } },
  gathered_fields: [
    { name: "confirmed", description: null, type: "boolean" },
    { name: "visit_date", description: null, type: "date" },
    { name: "email", description: null, type: "string" }
  ],
  call_seconds: 4,
  now,
  ...overrides
})

const types = (steps: ReadonlyArray<ScriptedStep>) => steps.map((s) => s.event.type)
const fragments = (steps: ReadonlyArray<ScriptedStep>) =>
  steps.flatMap((s) => (s.event.type === "fragment" ? [s.event] : []))

describe("SimulatedCall.outcomeFor", () => {
  it("ends the three test numbers otherwise and completes every other call", () => {
    expect(SimulatedCall.outcomeFor("+48500000486")).toBe("busy")
    expect(SimulatedCall.outcomeFor("+48500000487")).toBe("no_answer")
    expect(SimulatedCall.outcomeFor("+48500000488")).toBe("failed")
    expect(SimulatedCall.outcomeFor("+48500000489")).toBe("completed")
    expect(SimulatedCall.outcomeFor("toString")).toBe("completed")
  })
})

describe("SimulatedCall.script", () => {
  it("rings, is answered after a quarter of the talk time, talks, then reports its results and ends", () => {
    const steps = SimulatedCall.script(input())
    expect(types(steps).filter((t) => t !== "fragment")).toEqual([
      "ringing",
      "answered",
      "gathered",
      "sms",
      "log",
      "recording",
      "ended"
    ])
    expect(steps[0]).toEqual({ at_ms: 0, event: { type: "ringing" } })
    expect(steps[1]).toEqual({ at_ms: 1000, event: { type: "answered" } })
    expect(steps.at(-1)).toEqual({
      at_ms: 5000,
      event: { type: "ended", status: "completed", duration_seconds: 4 }
    })
    expect(steps.find((s) => s.event.type === "recording")?.event).toEqual({ type: "recording", seconds: 4 })
    expect(steps.find((s) => s.event.type === "sms")?.event).toMatchObject({
      to: "+48500100200",
      text: expect.stringContaining("Clinic assistant")
    })
    expect(steps.find((s) => s.event.type === "log")?.event).toMatchObject({ level: "info" })
  })

  it("talks from the first message, the known context, the plan and a question per gathered field", () => {
    const said = fragments(SimulatedCall.script(input()))
    expect(said[0]).toEqual({ type: "fragment", role: "assistant", text: "Hello Ola!" })
    const lines = said.map((f) => `${f.role}: ${f.text}`)
    expect(lines).toContain(
      "assistant: Let me confirm what I have. first name: Ola; phone number: +48500100200."
    )
    expect(lines).toContain("assistant: Confirm the appointment. Tuesday at 10:00")
    expect(lines).toContain("assistant: Say goodbye")
    expect(lines).toContain("assistant: What is your visit date?")
    expect(lines).toContain("user: 2026-02-17")
    expect(lines).toContain("user: jan.kowalski@example.com")
    expect(said.at(-1)).toMatchObject({ role: "user", text: "Goodbye." })
  })

  it("gathers a plausible value of each field's type, preferring what the context already says", () => {
    const gathered = SimulatedCall.script(input()).find((s) => s.event.type === "gathered")?.event
    expect(gathered).toEqual({
      type: "gathered",
      values: { confirmed: true, visit_date: "2026-02-17", email: "jan.kowalski@example.com" }
    })
    const field = (name: string, type: GatheredField["type"]): GatheredField => ({
      name,
      description: null,
      type
    })
    const value = (f: GatheredField, context: Record<string, unknown> = {}) =>
      SimulatedCall.plausibleValue(f, context, "+48500100200", now)
    expect(value(field("customer_name", "string"))).toBe("Jan Kowalski")
    expect(value(field("customer_name", "string"), { customer_name: "Ola Nowak" })).toBe("Ola Nowak")
    expect(value(field("callback_phone", "string"))).toBe("+48500100200")
    expect(value(field("notes", "string"))).toBe("confirmed")
    expect(value(field("number_of_guests", "number"))).toBe(2)
    expect(value(field("age", "number"))).toBe(42)
    expect(value(field("language_level", "number"))).toBe(1)
    expect(value(field("budget", "number"), { budget: 1500 })).toBe(1500)
    expect(value(field("budget", "number"), { budget: "a lot" })).toBe(1)
    expect(value(field("agrees", "boolean"), { agrees: false })).toBe(false)
    expect(value(field("visit", "date"), { visit: "2026-03-01" })).toBe("2026-03-01")
    expect(value(field("visit", "date"), { visit: "next week" })).toBe("2026-02-17")
  })

  it("sends no gathered event when the agent gathers nothing", () => {
    expect(types(SimulatedCall.script(input({ gathered_fields: [] })))).not.toContain("gathered")
  })

  it("ends the test numbers without a conversation, a recording or billed seconds", () => {
    const ended = (steps: ReadonlyArray<ScriptedStep>) => steps.at(-1)
    const busy = SimulatedCall.script(input({ phone_number: "+48500000486" }))
    expect(types(busy)).toEqual(["log", "ended"])
    expect(ended(busy)).toEqual({
      at_ms: 1000,
      event: { type: "ended", status: "busy", duration_seconds: 0 }
    })
    expect(busy[0]?.event).toMatchObject({ message: expect.stringContaining("+48500000486") })

    const unanswered = SimulatedCall.script(input({ phone_number: "+48500000487" }))
    expect(types(unanswered)).toEqual(["ringing", "log", "ended"])
    expect(ended(unanswered)).toEqual({
      at_ms: 5000,
      event: { type: "ended", status: "no_answer", duration_seconds: 0 }
    })

    const failed = SimulatedCall.script(input({ phone_number: "+48500000488" }))
    expect(types(failed)).toEqual(["log", "ended"])
    expect(failed[0]?.event).toMatchObject({ level: "error" })
    expect(ended(failed)?.event).toEqual({ type: "ended", status: "failed", duration_seconds: 0 })
  })

  const arbitraryInput = FastCheck.record({
    call_seconds: FastCheck.double({ min: 0.001, max: 120, noNaN: true }),
    plan: FastCheck.array(
      FastCheck.record({
        title: FastCheck.string(),
        description: FastCheck.option(FastCheck.string(), { nil: null })
      }),
      { maxLength: 6 }
    ),
    gathered_fields: FastCheck.array(
      FastCheck.record({
        name: FastCheck.string({ minLength: 1 }),
        description: FastCheck.constant(null),
        type: FastCheck.constantFrom(
          "string" as const,
          "number" as const,
          "boolean" as const,
          "date" as const
        )
      }),
      { maxLength: 5 }
    ),
    phone_number: FastCheck.constantFrom("+48500100200", "+48500000486", "+48500000487", "+48500000488")
  })

  it.prop(
    "happens in time order, ends once and last, and talks only between the answer and the end",
    [arbitraryInput],
    ([overrides]) => {
      const steps = SimulatedCall.script(input(overrides))
      const times = steps.map((s) => s.at_ms)
      expect(times).toEqual([...times].sort((a, b) => a - b))
      expect(types(steps).filter((t) => t === "ended")).toHaveLength(1)
      expect(steps.at(-1)?.event.type).toBe("ended")
      const talkMs = Math.max(1, Math.round(overrides.call_seconds * 1000))
      const answered = steps.find((s) => s.event.type === "answered")
      for (const step of steps.filter((s) => s.event.type === "fragment")) {
        expect(step.at_ms).toBeGreaterThanOrEqual(answered!.at_ms)
        expect(step.at_ms).toBeLessThan(answered!.at_ms + talkMs)
      }
      const end = steps.at(-1)!.event
      if (end.type === "ended" && end.status !== "completed") {
        expect(end.duration_seconds).toBe(0)
        expect(types(steps)).not.toContain("fragment")
        expect(types(steps)).not.toContain("recording")
      }
    }
  )
})
