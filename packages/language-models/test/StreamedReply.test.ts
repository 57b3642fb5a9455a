import { describe, expect, it } from "@effect/vitest"
import type { ModelEvent } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { Either, FastCheck } from "effect"
import type { Chunk } from "../src/ChatCompletionsReply.js"
import * as StreamedReply from "../src/StreamedReply.js"

/** The events of a whole stream, or the error's tag and reason. */
const run = (chunks: ReadonlyArray<Chunk>, sawDone = true) => {
  let assembly = StreamedReply.initial
  const events: Array<ModelEvent> = []
  for (const chunk of chunks) {
    const added = StreamedReply.add(assembly, chunk)
    if (Either.isLeft(added)) return { error: added.left }
    assembly = added.right[0]
    events.push(...added.right[1])
  }
  const ended = StreamedReply.end(assembly, sawDone)
  return Either.isLeft(ended) ? { error: ended.left } : { events: [...events, ...ended.right] }
}

const delta = (value: Record<string, unknown>, finish_reason: string | null = null): Chunk =>
  ({ choices: [{ index: 0, delta: value, finish_reason }] }) as Chunk
const fragment = (index: number, value: Record<string, unknown>) =>
  delta({ tool_calls: [{ index, ...value }] })

describe("StreamedReply", () => {
  it("passes text on as it comes, then the usage sent after the finish, then the finish", () => {
    expect(
      run([
        delta({ role: "assistant", content: "" }),
        delta({ content: "Hel" }),
        delta({ content: "lo" }),
        delta({}, "stop"),
        { choices: [], usage: { prompt_tokens: 12, completion_tokens: 2 } } as Chunk
      ])
    ).toEqual({
      events: [
        { _tag: "TextDelta", text: "Hel" },
        { _tag: "TextDelta", text: "lo" },
        { _tag: "Usage", usage: { prompt_tokens: 12, completion_tokens: 2 } },
        { _tag: "Finish", reason: "stop" }
      ]
    })
  })

  it("puts interleaved calls back together by index and lets them out whole, in index order, at the finish", () => {
    const result = run([
      delta({ content: "Checking." }),
      fragment(1, { id: "call_b", type: "function", function: { name: "book", arguments: "" } }),
      fragment(0, { id: "call_a", type: "function", function: { name: "weather", arguments: '{"ci' } }),
      fragment(1, { function: { arguments: '{"day":' } }),
      fragment(0, { function: { arguments: 'ty":"Kra' } }),
      fragment(1, { function: { arguments: '"friday"}' } }),
      fragment(0, { function: { arguments: 'ków"}' } }),
      delta({}, "tool_calls")
    ])
    expect(result).toEqual({
      events: [
        { _tag: "TextDelta", text: "Checking." },
        { _tag: "ToolCall", call: { id: "call_a", name: "weather", arguments: '{"city":"Kraków"}' } },
        { _tag: "ToolCall", call: { id: "call_b", name: "book", arguments: '{"day":"friday"}' } },
        { _tag: "Finish", reason: "tool_calls" }
      ]
    })
  })

  it("keeps a name repeated in every fragment once; reads calls sent whole without an index, id or string arguments", () => {
    const result = run([
      fragment(0, { function: { name: "lookup", arguments: '{"q":' } }),
      fragment(0, { function: { name: "lookup", arguments: '"x"}' } }),
      delta({ tool_calls: [{ function: { name: "second", arguments: { a: 1 } } }] }),
      delta({ tool_calls: [{ id: "third", function: { name: "third", arguments: "{" } }] }),
      delta({ tool_calls: [{ function: { arguments: "}" } }] }, "stop")
    ])
    expect(result).toEqual({
      events: [
        { _tag: "ToolCall", call: { id: "call_0", name: "lookup", arguments: '{"q":"x"}' } },
        { _tag: "ToolCall", call: { id: "call_1", name: "second", arguments: '{"a":1}' } },
        { _tag: "ToolCall", call: { id: "third", name: "third", arguments: "{}" } },
        // a server that says `stop` after calls finished for them
        { _tag: "Finish", reason: "tool_calls" }
      ]
    })
  })

  it("passes no usage when the server sent none, and the last usage when it sent several", () => {
    expect(run([delta({ content: "Hi" }, "stop")])).toEqual({
      events: [
        { _tag: "TextDelta", text: "Hi" },
        { _tag: "Finish", reason: "stop" }
      ]
    })
    const repeated = run([
      { ...delta({ content: "Hi" }), usage: { prompt_tokens: 5, completion_tokens: 1 } } as Chunk,
      { ...delta({ content: "!" }, "length"), usage: { prompt_tokens: 5, completion_tokens: 2 } } as Chunk
    ])
    expect(repeated.events?.slice(-2)).toEqual([
      { _tag: "Usage", usage: { prompt_tokens: 5, completion_tokens: 2 } },
      { _tag: "Finish", reason: "length" }
    ])
  })

  it("fails a stream cut off before it finished, a refusal, a nameless call, fragments after the finish, an error event", () => {
    const reason = (result: ReturnType<typeof run>) =>
      result.error === undefined ? null : result.error.message
    expect(reason(run([delta({ content: "Hel" })], false))).toBe(
      "model_unavailable: the provider's stream ended before the reply finished"
    )
    // the end without [DONE] is fine once the server said why it stopped
    expect(reason(run([delta({ content: "Hi" }, "stop")], false))).toBeNull()
    expect(reason(run([delta({ refusal: "I can't " }), delta({ refusal: "help with that." }, "stop")]))).toBe(
      `model_refused: the model refused: "I can't help with that."`
    )
    expect(reason(run([fragment(0, { function: { arguments: "{}" } }), delta({}, "tool_calls")]))).toBe(
      "model_unavailable: the provider sent a tool call without a function name"
    )
    expect(
      reason(
        run([
          fragment(0, { id: "a", function: { name: "f", arguments: "{}" } }),
          delta({}, "tool_calls"),
          fragment(0, { function: { arguments: "x" } })
        ])
      )
    ).toBe("model_unavailable: the provider sent tool call fragments after the reply finished")
    expect(run([{ error: { message: "boom", type: "server_error" } } as Chunk]).error?._tag).toBe(
      "ModelUnavailable"
    )
    expect(
      run([{ error: { message: "This model's maximum context length is 8192 tokens", code: null } } as Chunk])
        .error?._tag
    ).toBe("ModelInputTooLong")
  })

  const argumentsText = '{"city":"Kraków","days":[1,2,3],"note":"a \\"quoted\\" word"}'
  it.prop(
    "reassembles a call's arguments however they are fragmented, next to another call's",
    [FastCheck.array(FastCheck.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 60 })],
    ([sizes]) => {
      const pieces: Array<string> = []
      for (let start = 0, turn = 0; start < argumentsText.length; turn++) {
        const size = sizes[turn % sizes.length]!
        pieces.push(argumentsText.slice(start, start + size))
        start += size
      }
      const chunks = [
        fragment(0, { id: "a", function: { name: "first", arguments: "" } }),
        fragment(1, { id: "b", function: { name: "second", arguments: "{}" } }),
        ...pieces.map((piece) => fragment(0, { function: { arguments: piece } })),
        delta({}, "tool_calls")
      ]
      expect(run(chunks).events?.filter((event) => event._tag === "ToolCall")).toEqual([
        { _tag: "ToolCall", call: { id: "a", name: "first", arguments: argumentsText } },
        { _tag: "ToolCall", call: { id: "b", name: "second", arguments: "{}" } }
      ])
    }
  )
})
