import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Schema, Stream } from "effect"
import type { LanguageModel, ModelEvent } from "../../src/language-model/LanguageModel.js"
import { storable } from "../../src/language-model/StorableReplies.js"
import * as StorableText from "../../src/text/StorableText.js"

const usage = { prompt_tokens: 1, completion_tokens: 1 }

/** A model answering the given events, reply and structured value, whatever it is asked. */
const model = (events: ReadonlyArray<ModelEvent>, value: unknown): LanguageModel["Type"] => ({
  provider: "test",
  stream: () => Stream.fromIterable(events),
  generate: () =>
    Effect.succeed({
      text: "a\u0000b",
      tool_calls: [{ id: "c\u0000", name: "f", arguments: '{"x":"\uD800"}' }],
      usage,
      finish_reason: "stop"
    }),
  structured: <A, I>(request: { readonly schema: Schema.Schema<A, I> }) =>
    Effect.succeed({ value: Schema.decodeUnknownSync(request.schema)(value), usage })
})

describe("StorableText and StorableReplies", () => {
  it("replaces NUL and unpaired surrogates, keeps pairs", () => {
    expect(StorableText.clean("a\u0000b\uD83D\uDE00c\uD800d\uDC00")).toBe(
      "a\uFFFDb\uD83D\uDE00c\uFFFDd\uFFFD"
    )
    expect(StorableText.cleanValue({ "k\u0000": ["\uDFFF", 1, null, { x: "ok" }] })).toEqual({
      "k\uFFFD": ["\uFFFD", 1, null, { x: "ok" }]
    })
  })

  it.effect("cleans a stream's text, keeping a pair cut between two deltas whole, and its calls", () =>
    Effect.gen(function* () {
      const service = storable(
        model(
          [
            { _tag: "TextDelta", text: "smile \uD83D" },
            { _tag: "TextDelta", text: "\uDE00 and\u0000" },
            { _tag: "TextDelta", text: " half \uD83D" },
            { _tag: "ToolCall", call: { id: "1", name: "f", arguments: "\u0000" } },
            { _tag: "Usage", usage },
            { _tag: "Finish", reason: "stop" }
          ],
          null
        )
      )
      const events = Chunk.toReadonlyArray(yield* Stream.runCollect(service.stream({ messages: [] })))
      const text = events.flatMap((e) => (e._tag === "TextDelta" ? [e.text] : [])).join("")
      expect(text).toBe("smile \uD83D\uDE00 and\uFFFD half \uFFFD")
      expect(events.filter((e) => e._tag === "ToolCall")).toEqual([
        { _tag: "ToolCall", call: { id: "1", name: "f", arguments: "\uFFFD" } }
      ])
      // the half pair held back goes out, cleaned, before the call
      expect(events.map((e) => e._tag).slice(-3)).toEqual(["ToolCall", "Usage", "Finish"])
      const reply = yield* service.generate({ messages: [] })
      expect([reply.text, reply.tool_calls[0]]).toEqual([
        "a\uFFFDb",
        { id: "c\uFFFD", name: "f", arguments: '{"x":"\uFFFD"}' }
      ])
      const structured = yield* storable(model([], { summary: "x\u0000" })).structured({
        name: "t",
        schema: Schema.Struct({ summary: Schema.String }),
        messages: []
      })
      expect(structured.value).toEqual({ summary: "x\uFFFD" })
    })
  )
})
