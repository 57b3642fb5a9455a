import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as SimulatedCall from "../../src/calls/SimulatedCall.js"
import type { SimulatedTool } from "../../src/calls/SimulatedToolCalls.js"
import * as SimulatedToolCalls from "../../src/calls/SimulatedToolCalls.js"
import type { Tool } from "../../src/tools/Tool.js"

const now = new Date("2026-02-10T11:00:00.000Z")

const simulated = (tool_uuid: string, phrases: ReadonlyArray<string>): SimulatedTool => ({
  tool_uuid,
  name: tool_uuid,
  trigger_phrases: phrases,
  parameters: [
    { name: "order_id", type: "string", description: "", required: true },
    { name: "count", type: "number", description: "", required: true },
    { name: "urgent", type: "boolean", description: "", required: false }
  ],
  wait_message: null
})

const stored = (tool_uuid: string, definition: Tool["definition"]): Tool =>
  ({ tool_uuid, name: tool_uuid, definition }) as Tool

describe("SimulatedToolCalls", () => {
  it("matches a phrase as whole words, whatever the case and punctuation", () => {
    expect(SimulatedToolCalls.matches("Could you CHECK my order, please?", "check my order")).toBe(true)
    expect(SimulatedToolCalls.matches("recheck my orders", "check my order")).toBe(false)
    expect(SimulatedToolCalls.matches("anything", "  ?! ")).toBe(false)
    expect(SimulatedToolCalls.matches("Gdzie jest paczka?", "gdzie jest PACZKA")).toBe(true)
  })

  it("keeps HTTP API tools with a trigger phrase, at most five, in order", () => {
    const http = (url: string, phrases: Array<string> | null) =>
      ({
        type: "http_api",
        schema_version: 1,
        config: { method: "GET", url, timeout_ms: 5000, trigger_phrases: phrases }
      }) as Tool["definition"]
    const tools = [
      stored("a", http("https://a.example", ["find"])),
      stored("b", http("https://b.example", null)),
      stored("c", http("https://c.example", [" ", "look up"])),
      stored("d", { type: "end_call", schema_version: 1, config: { messageType: "none" } }),
      ...["e", "f", "g", "h", "i"].map((id) => stored(id, http(`https://${id}.example`, ["x"])))
    ]
    const usable = SimulatedToolCalls.usableTools(tools)
    expect(usable.map((tool) => tool.tool_uuid)).toEqual(["a", "c", "e", "f", "g"])
    expect(usable[1]!.trigger_phrases).toEqual(["look up"])
  })

  it("a simulated call asks for each tool and calls it once, after the agent's wait message", () => {
    const tools = [
      simulated("t1", ["check my order"]),
      simulated("t2", ["where is my parcel", "check my order"])
    ]
    const steps = SimulatedCall.script({
      phone_number: "+48500100200",
      agent_name: "Shop",
      first_message: "Hello",
      plan: [],
      initial_context: { order_id: "A-17" },
      gathered_fields: [],
      tools,
      call_seconds: 4,
      now
    })
    const calls = steps.flatMap((step) => (step.event.type === "tool_call" ? [step] : []))
    expect(calls.map((step) => step.event)).toEqual([
      { type: "tool_call", tool_uuid: "t1", arguments: { order_id: "A-17", count: 2, urgent: true } },
      // t2 also answers to t1's phrase, said first: it is called then, and not again at its own request
      { type: "tool_call", tool_uuid: "t2", arguments: { order_id: "A-17", count: 2, urgent: true } }
    ])
    expect(calls[0]!.at_ms).toBe(calls[1]!.at_ms)
    for (const call of calls) {
      let index = steps.indexOf(call) - 1
      while (steps[index]!.event.type === "tool_call") index--
      expect(steps[index]!.event).toMatchObject({
        type: "fragment",
        role: "assistant",
        text: "One moment, please."
      })
      expect(steps[index - 1]!.event).toMatchObject({
        type: "fragment",
        role: "user",
        text: "check my order"
      })
    }
    // the script stays in time order
    expect(steps.map((step) => step.at_ms)).toEqual(
      [...steps.map((step) => step.at_ms)].sort((a, b) => a - b)
    )
  })

  it.prop(
    "whatever the caller says, each tool is called at most once and only at a line holding one of its phrases",
    [
      FastCheck.array(
        FastCheck.constantFrom("check my order", "Where is my parcel?", "okay", "CHECK MY ORDER!")
      )
    ],
    ([lines]) => {
      const tools = [simulated("t1", ["check my order"]), simulated("t2", ["where is my parcel"])]
      const triggered = SimulatedToolCalls.triggered(lines, tools)
      const called = triggered.flat().map((tool) => tool.tool_uuid)
      expect(new Set(called).size).toBe(called.length)
      triggered.forEach((hits, i) => {
        for (const tool of hits) {
          expect(tool.trigger_phrases.some((phrase) => SimulatedToolCalls.matches(lines[i]!, phrase))).toBe(
            true
          )
        }
      })
      for (const tool of tools) {
        const asked = lines.some((line) =>
          tool.trigger_phrases.some((phrase) => SimulatedToolCalls.matches(line, phrase))
        )
        expect(called.includes(tool.tool_uuid)).toBe(asked)
      }
    }
  )
})
