import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import type { ModelEvent, ModelReply, ToolCall } from "../../src/language-model/LanguageModel.js"
import * as ModelReplies from "../../src/language-model/ModelReplies.js"

const call = (id: string, name = "lookup", args = "{}"): ToolCall => ({ id, name, arguments: args })
const fold = (events: ReadonlyArray<ModelEvent>) => events.reduce(ModelReplies.add, ModelReplies.empty)

const anyCall: FastCheck.Arbitrary<ToolCall> = FastCheck.record({
  id: FastCheck.string({ minLength: 1, maxLength: 12 }),
  name: FastCheck.stringMatching(/^[a-z_]{1,10}$/),
  arguments: FastCheck.string({ maxLength: 30 })
})
const anyUsage = FastCheck.record({
  prompt_tokens: FastCheck.nat({ max: 100_000 }),
  completion_tokens: FastCheck.nat({ max: 100_000 })
})
const anyReason = FastCheck.constantFrom(
  "stop" as const,
  "tool_calls" as const,
  "length" as const,
  "content_filter" as const
)
const anyEvent: FastCheck.Arbitrary<ModelEvent> = FastCheck.oneof(
  FastCheck.record({
    _tag: FastCheck.constant("TextDelta" as const),
    text: FastCheck.string({ maxLength: 20 })
  }),
  FastCheck.record({ _tag: FastCheck.constant("ToolCall" as const), call: anyCall }),
  FastCheck.record({ _tag: FastCheck.constant("Usage" as const), usage: anyUsage }),
  FastCheck.record({ _tag: FastCheck.constant("Finish" as const), reason: anyReason })
)
const anyReply: FastCheck.Arbitrary<ModelReply> = FastCheck.record({
  text: FastCheck.string({ maxLength: 60 }),
  tool_calls: FastCheck.array(anyCall, { maxLength: 4 }),
  usage: anyUsage,
  finish_reason: anyReason
})

describe("ModelReplies", () => {
  it("appends text, adds calls in order, sums usage and records the finish", () => {
    const reply = ModelReplies.finish(
      fold([
        { _tag: "TextDelta", text: "Let me " },
        { _tag: "ToolCall", call: call("c1", "lookup", '{"order":"A-1"}') },
        { _tag: "TextDelta", text: "check." },
        { _tag: "Usage", usage: { prompt_tokens: 10, completion_tokens: 2 } },
        { _tag: "ToolCall", call: call("c2", "weather") },
        { _tag: "Usage", usage: { prompt_tokens: 5, completion_tokens: 1 } },
        { _tag: "Finish", reason: "length" }
      ])
    )
    expect(reply).toEqual({
      text: "Let me check.",
      tool_calls: [call("c1", "lookup", '{"order":"A-1"}'), call("c2", "weather")],
      usage: { prompt_tokens: 15, completion_tokens: 3 },
      finish_reason: "length"
    })
  })

  it("a stream that never said why it stopped finished for its tool calls when it made some, else normally", () => {
    expect(ModelReplies.finish(fold([{ _tag: "TextDelta", text: "Hi" }])).finish_reason).toBe("stop")
    expect(ModelReplies.finish(fold([{ _tag: "ToolCall", call: call("c1") }])).finish_reason).toBe(
      "tool_calls"
    )
    expect(ModelReplies.finish(ModelReplies.empty)).toEqual({
      text: "",
      tool_calls: [],
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      finish_reason: "stop"
    })
    // a finish the stream gave is kept, calls or not
    expect(
      ModelReplies.finish(
        fold([
          { _tag: "ToolCall", call: call("c1") },
          { _tag: "Finish", reason: "stop" }
        ])
      ).finish_reason
    ).toBe("stop")
  })

  it("streams a reply as its text in one delta, its calls, its usage and its finish", () => {
    const reply: ModelReply = {
      text: "Done.",
      tool_calls: [call("c1")],
      usage: { prompt_tokens: 3, completion_tokens: 4 },
      finish_reason: "tool_calls"
    }
    expect(ModelReplies.toEvents(reply)).toEqual([
      { _tag: "TextDelta", text: "Done." },
      { _tag: "ToolCall", call: call("c1") },
      { _tag: "Usage", usage: { prompt_tokens: 3, completion_tokens: 4 } },
      { _tag: "Finish", reason: "tool_calls" }
    ])
    // no empty delta for a reply without text
    expect(ModelReplies.toEvents({ ...reply, text: "" })[0]).toEqual({ _tag: "ToolCall", call: call("c1") })
  })

  it.prop("a whole reply folded back from its events is the same reply", [anyReply], ([reply]) => {
    expect(ModelReplies.finish(fold(ModelReplies.toEvents(reply)))).toEqual(reply)
  })

  it.prop(
    "folding any stream gives its text, calls and summed usage, however the text was split",
    [FastCheck.array(anyEvent, { maxLength: 20 })],
    ([events]) => {
      const reply = ModelReplies.finish(fold(events))
      const texts = events.flatMap((e) => (e._tag === "TextDelta" ? [e.text] : []))
      expect(reply.text).toBe(texts.join(""))
      expect(reply.tool_calls).toEqual(events.flatMap((e) => (e._tag === "ToolCall" ? [e.call] : [])))
      const usages = events.flatMap((e) => (e._tag === "Usage" ? [e.usage] : []))
      expect(reply.usage.prompt_tokens).toBe(usages.reduce((sum, u) => sum + u.prompt_tokens, 0))
      expect(reply.usage.completion_tokens).toBe(usages.reduce((sum, u) => sum + u.completion_tokens, 0))
      const finishes = events.flatMap((e) => (e._tag === "Finish" ? [e.reason] : []))
      expect(reply.finish_reason).toBe(
        finishes.at(-1) ?? (reply.tool_calls.length > 0 ? "tool_calls" : "stop")
      )
      // streamed again and folded, it is the same reply
      expect(ModelReplies.finish(fold(ModelReplies.toEvents(reply)))).toEqual(reply)
    }
  )
})
