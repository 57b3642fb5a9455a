import { describe, expect, it } from "@effect/vitest"
import * as CallAnalysis from "@voice-agent-platform/core/analysis/CallAnalysis.js"
import { jsonSchemaOf } from "@voice-agent-platform/core/language-model/StructuredOutput.js"
import { FakeModel } from "@voice-agent-platform/language-models/testing"
import { Either, FastCheck, JSONSchema, Schema } from "effect"

describe("FakeModel", () => {
  it("fills a call_analysis schema with an object the schema decodes: nulls where allowed, the first code", () => {
    const schema = CallAnalysis.schemaFor(
      [
        { name: "email", description: null, type: "string" },
        { name: "age", description: null, type: "number" }
      ],
      { booked: "A visit was booked", declined: "No visit" }
    ) as unknown as Schema.Schema<CallAnalysis.Analysis>
    const value = FakeModel.fill(jsonSchemaOf(schema))
    expect(value).toEqual({
      gathered_data: { email: null, age: null },
      disposition: "booked",
      summary: "example"
    })
    expect(Either.isRight(Schema.decodeUnknownEither(schema)(value))).toBe(true)
  })

  it("follows $ref into $defs, and fills arrays to their fewest items, numbers from their minimum", () => {
    const Suggestion = Schema.Struct({
      text: Schema.String,
      source_run_id: Schema.NullOr(Schema.Int)
    }).annotations({
      identifier: "Suggestion"
    })
    const schema = Schema.Struct({
      suggestions: Schema.Array(Suggestion).pipe(Schema.minItems(2)),
      score: Schema.Number.pipe(Schema.greaterThanOrEqualTo(3)),
      ok: Schema.Boolean
    })
    // Effect's own derivation refers to named schemas (`jsonSchemaOf` writes them in place for providers)
    const json = JSONSchema.make(schema) as unknown as ReturnType<typeof jsonSchemaOf>
    expect(JSON.stringify(json)).toContain("$ref")
    const value = FakeModel.fill(json)
    expect(value).toEqual({
      suggestions: [
        { text: "example", source_run_id: null },
        { text: "example", source_run_id: null }
      ],
      score: 3,
      ok: false
    })
    expect(Either.isRight(Schema.decodeUnknownEither(schema)(value))).toBe(true)
  })

  it("answers the last user message back, or greets when there is none; counts words as tokens", () => {
    const body = {
      messages: [
        { role: "system", content: "You are kind." },
        { role: "user", content: "First question" },
        { role: "assistant", content: "An answer" },
        { role: "user", content: [{ type: "text", text: "Second question" }] }
      ]
    }
    expect(FakeModel.defaultReply(body)).toEqual({ content: "You said: Second question" })
    expect(FakeModel.defaultReply({ messages: [{ role: "system", content: "x" }] })).toEqual({
      content: "Hello! How can I help you today?"
    })
    expect(FakeModel.completion(FakeModel.defaultReply(body), body)["usage"]).toEqual({
      prompt_tokens: 9,
      completion_tokens: 4,
      total_tokens: 13
    })
  })

  it("calls an offered function the user's last message names, its arguments filled from its parameters", () => {
    const tools = [
      { type: "function", function: { name: "weather", parameters: { type: "object", properties: {} } } },
      {
        type: "function",
        function: {
          name: "order_status",
          parameters: {
            type: "object",
            properties: { order: { type: "string" }, count: { type: "integer", minimum: 1 } },
            required: ["order"]
          }
        }
      }
    ]
    const asking = (text: string, extra: Record<string, unknown> = {}) => ({
      messages: [
        { role: "system", content: "You help." },
        { role: "user", content: text }
      ],
      tools,
      tool_choice: "auto",
      ...extra
    })
    expect(FakeModel.defaultReply(asking("Please run order_status for me."))).toEqual({
      tool_calls: [{ name: "order_status", arguments: JSON.stringify({ order: "example", count: 1 }) }]
    })
    // a name inside another word is not a call; neither is a call when none is allowed or offered
    expect(FakeModel.defaultReply(asking("my_order_status_page"))).toEqual({
      content: "You said: my_order_status_page"
    })
    expect(FakeModel.defaultReply(asking("order_status", { tool_choice: "none" }))).toEqual({
      content: "You said: order_status"
    })
    expect(FakeModel.defaultReply({ ...asking("order_status"), tools: [] })).toEqual({
      content: "You said: order_status"
    })
    // given the function's result, it answers in words
    const answered = asking("weather?")
    answered.messages.push({ role: "tool", content: "{}" })
    expect(FakeModel.defaultReply(answered)).toEqual({ content: "You said: weather?" })
  })

  it.prop(
    "cuts text into pieces that put it back together",
    [
      FastCheck.string({ maxLength: 200 }),
      FastCheck.option(FastCheck.integer({ min: 1, max: 20 }), { nil: undefined })
    ],
    ([text, size]) => {
      const pieces = FakeModel.pieces(text, size)
      expect(pieces.join("")).toBe(text)
      expect(pieces.every((piece) => piece !== "")).toBe(true)
    }
  )
})
