import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as ChatMessages from "../../src/chat/ChatMessages.js"
import { at, logLine, said, toolCallLine } from "../conversation/AgentFixtures.js"

const names = (uuid: string) => (uuid === "t-order" ? "Check order" : null)

describe("ChatMessages.list", () => {
  it("lists what was said in order, each tool call after the user message it answered", () => {
    const listed = ChatMessages.list(
      [
        said("assistant", "Hello", 0),
        said("user", "Where is A-1?", 10),
        said("assistant", "It shipped.", 14)
      ],
      [
        logLine("Chat started", 0),
        toolCallLine("t-order", 12),
        toolCallLine("t-gone", 13, { outcome: "error", error_type: "timeout" })
      ],
      names
    )
    expect(listed).toEqual([
      { role: "assistant", text: "Hello", timestamp: at(0), tool_call: null },
      { role: "user", text: "Where is A-1?", timestamp: at(10), tool_call: null },
      {
        role: "tool",
        text: null,
        timestamp: at(12),
        tool_call: { tool_uuid: "t-order", name: "Check order", ok: true, error: null }
      },
      {
        role: "tool",
        text: null,
        timestamp: at(13),
        tool_call: { tool_uuid: "t-gone", name: null, ok: false, error: "timeout" }
      },
      { role: "assistant", text: "It shipped.", timestamp: at(14), tool_call: null }
    ])
  })

  it("lists an empty conversation as empty, and calls without anything said in time order", () => {
    expect(ChatMessages.list([], [], names)).toEqual([])
    expect(
      ChatMessages.list([], [toolCallLine("t-order", 5), toolCallLine("t-order", 2)], names).map((m) =>
        m.timestamp.getTime()
      )
    ).toEqual([at(2).getTime(), at(5).getTime()])
  })

  it.prop(
    "every fragment and every tool call once; fragments in their order, calls in time order, after the user",
    [
      FastCheck.array(
        FastCheck.record({
          role: FastCheck.constantFrom("user" as const, "assistant" as const),
          seconds: FastCheck.nat(100)
        }),
        { maxLength: 10 }
      ),
      FastCheck.array(FastCheck.nat(110), { maxLength: 6 })
    ],
    ([fragments, callTimes]) => {
      const times = fragments.map((f) => f.seconds).sort((x, y) => x - y)
      const kept = fragments.map((f, i) => said(f.role, `m${i}`, times[i]!))
      const listed = ChatMessages.list(
        kept,
        callTimes.map((seconds) => toolCallLine("t-order", seconds)),
        names
      )
      expect(listed.filter((m) => m.role !== "tool").map((m) => m.text)).toEqual(kept.map((f) => f.text))
      const calls = listed.filter((m) => m.role === "tool")
      expect(calls.map((m) => m.timestamp.getTime())).toEqual(
        callTimes.map((s) => at(s).getTime()).sort((x, y) => x - y)
      )
      listed.forEach((message, i) => {
        if (message.role !== "tool") return
        expect(message.text).toBeNull()
        // no user message said at or before the call comes after it
        for (const later of listed.slice(i + 1)) {
          if (later.role === "user")
            expect(later.timestamp.getTime()).toBeGreaterThan(message.timestamp.getTime())
        }
      })
    }
  )
})
