import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { HistoryItem, SpokenItem, ToolItem } from "../../src/conversation/ConversationHistory.js"
import * as ConversationHistory from "../../src/conversation/ConversationHistory.js"
import type { ModelMessage } from "../../src/language-model/LanguageModel.js"
import { at, logLine, said, toolCallLine } from "./AgentFixtures.js"

const spoken = (role: "user" | "assistant", text: string, seconds = 0): SpokenItem => ({
  _tag: "Spoken",
  role,
  text,
  timestamp: at(seconds)
})
const called = (
  function_name: string,
  args: Record<string, unknown>,
  result: string,
  seconds = 0
): ToolItem => ({
  _tag: "Tool",
  function_name,
  arguments: args,
  result,
  timestamp: at(seconds)
})
/** What an item costs in the budget, as documented: its text, or its call's name, arguments and result. */
const size = (item: HistoryItem) =>
  item._tag === "Spoken"
    ? item.text.length
    : item.function_name.length + JSON.stringify(item.arguments).length + item.result.length

const anyItem: FastCheck.Arbitrary<HistoryItem> = FastCheck.oneof(
  FastCheck.record({
    role: FastCheck.constantFrom("user" as const, "assistant" as const),
    text: FastCheck.string({ maxLength: 40 })
  }).map(({ role, text }) => spoken(role, text)),
  FastCheck.record({
    name: FastCheck.stringMatching(/^[a-z_]{1,10}$/),
    args: FastCheck.dictionary(
      FastCheck.stringMatching(/^[a-z]{1,5}$/),
      FastCheck.jsonValue({ maxDepth: 1 }),
      {
        maxKeys: 3
      }
    ),
    result: FastCheck.json({ maxDepth: 1 })
  }).map(({ args, name, result }) => called(name, args, result))
)

describe("ConversationHistory.loggedResult", () => {
  const line = (fields: Parameters<typeof toolCallLine>[2]) => toolCallLine("t-1", 0, fields).tool_call!

  it("tells a call that worked as ok with its response as JSON", () => {
    expect(ConversationHistory.loggedResult(line({ response: '{"status":"shipped"}' }))).toBe(
      '{"ok":true,"response":{"status":"shipped"}}'
    )
    expect(ConversationHistory.loggedResult(line({ response: null }))).toBe('{"ok":true,"response":null}')
  })

  it("tells a failed call with its error type, and a response cut short as the text it is", () => {
    expect(
      ConversationHistory.loggedResult(
        line({ outcome: "error", error_type: "http_status", response: '{"e":"x"}' })
      )
    ).toBe('{"ok":false,"error":"http_status","response":{"e":"x"}}')
    expect(
      ConversationHistory.loggedResult(line({ response: '{"items":["a","b', response_truncated: true }))
    ).toBe(JSON.stringify({ ok: true, response: '{"items":["a","b' }))
  })
})

describe("ConversationHistory.fromRun", () => {
  const names = (uuid: string) => ({ "t-order": "check_order", "t-end": "end_call" })[uuid]

  it("puts each logged call after the user message it answered, leaving out other lines and unknown tools", () => {
    const items = ConversationHistory.fromRun(
      [
        said("assistant", "Hello", 0),
        said("user", "Where is A-1?", 10),
        said("assistant", "It shipped.", 14)
      ],
      [
        logLine("Call started", 0),
        toolCallLine("t-order", 12, { arguments: { order: "A-1" }, response: '{"status":"shipped"}' }),
        toolCallLine("t-gone", 12),
        toolCallLine("t-end", 15)
      ],
      names
    )
    expect(items).toEqual([
      spoken("assistant", "Hello", 0),
      spoken("user", "Where is A-1?", 10),
      called("check_order", { order: "A-1" }, '{"ok":true,"response":{"status":"shipped"}}', 12),
      called("end_call", {}, '{"ok":true,"response":null}', 15),
      spoken("assistant", "It shipped.", 14)
    ])
  })

  it("places a call logged at the moment a user message was kept after that message", () => {
    const items = ConversationHistory.fromRun(
      [said("user", "Hi", 5), said("assistant", "Hello", 5)],
      [toolCallLine("t-order", 5)],
      names
    )
    expect(items.map((item) => item._tag)).toEqual(["Spoken", "Tool", "Spoken"])
  })
})

describe("ConversationHistory.trim", () => {
  const items = [
    spoken("user", "a".repeat(10)),
    called("f", {}, "r".repeat(7)),
    spoken("assistant", "b".repeat(5))
  ]
  // the call costs 1 + 2 + 7 = 10 characters

  it("keeps the newest items that fit the budget, dropping the oldest first", () => {
    expect(ConversationHistory.trim(items, 25)).toEqual(items)
    expect(ConversationHistory.trim(items, 24)).toEqual(items.slice(1))
    expect(ConversationHistory.trim(items, 15)).toEqual(items.slice(1))
  })

  it("keeps or drops a tool call whole, with its result", () => {
    expect(ConversationHistory.trim(items, 14)).toEqual(items.slice(2))
  })

  it("keeps the newest item even alone over the budget, and nothing of nothing", () => {
    expect(ConversationHistory.trim(items, 4)).toEqual(items.slice(2))
    expect(ConversationHistory.trim(items, 0)).toEqual(items.slice(2))
    expect(ConversationHistory.trim([spoken("user", "x".repeat(100))], 10)).toHaveLength(1)
    expect(ConversationHistory.trim([], 10)).toEqual([])
  })

  it.prop(
    "the kept items are the longest newest run within the budget, or the newest item alone",
    [FastCheck.array(anyItem, { maxLength: 15 }), FastCheck.nat(300)],
    ([history, budget]) => {
      const kept = ConversationHistory.trim(history, budget)
      expect(kept).toEqual(history.slice(history.length - kept.length))
      const used = kept.reduce((sum, item) => sum + size(item), 0)
      if (history.length > 0) expect(kept.length).toBeGreaterThanOrEqual(1)
      if (kept.length > 1) expect(used).toBeLessThanOrEqual(budget)
      if (kept.length < history.length) {
        expect(used + size(history[history.length - kept.length - 1]!)).toBeGreaterThan(budget)
      }
    }
  )
})

describe("ConversationHistory.toMessages", () => {
  it("gives what was said as messages, and a call as the assistant's call followed by its result", () => {
    expect(
      ConversationHistory.toMessages([
        spoken("user", "Where is A-1?"),
        called("check_order", { order: "A-1" }, '{"ok":true}'),
        spoken("assistant", "It shipped."),
        called("end_call", {}, '{"ok":true}')
      ])
    ).toEqual([
      { role: "user", content: "Where is A-1?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_h2", name: "check_order", arguments: '{"order":"A-1"}' }]
      },
      { role: "tool", tool_call_id: "call_h2", content: '{"ok":true}' },
      { role: "assistant", content: "It shipped." },
      { role: "assistant", content: "", tool_calls: [{ id: "call_h4", name: "end_call", arguments: "{}" }] },
      { role: "tool", tool_call_id: "call_h4", content: '{"ok":true}' }
    ])
  })

  it.prop(
    "every call is answered by the next message and every answer follows its call, ids distinct",
    [FastCheck.array(anyItem, { maxLength: 15 }), FastCheck.nat(300)],
    ([history, budget]) => {
      const messages: ReadonlyArray<ModelMessage> = ConversationHistory.toMessages(
        ConversationHistory.trim(history, budget)
      )
      const ids: Array<string> = []
      messages.forEach((message, i) => {
        if (message.role === "assistant" && message.tool_calls !== undefined) {
          expect(message.tool_calls).toHaveLength(1)
          const next = messages[i + 1]
          expect(next).toEqual({
            role: "tool",
            tool_call_id: message.tool_calls[0]!.id,
            content: expect.any(String)
          })
          ids.push(message.tool_calls[0]!.id)
          expect(JSON.parse(message.tool_calls[0]!.arguments)).toBeTypeOf("object")
        }
        if (message.role === "tool") {
          const previous = messages[i - 1]
          expect(
            previous?.role === "assistant" && previous.tool_calls?.[0]?.id === message.tool_call_id
          ).toBe(true)
        }
      })
      expect(new Set(ids).size).toBe(ids.length)
      expect(messages.filter((m) => m.role !== "tool" && !("tool_calls" in m)).map((m) => m.content)).toEqual(
        ConversationHistory.trim(history, budget).flatMap((item) =>
          item._tag === "Spoken" ? [item.text] : []
        )
      )
    }
  )
})
