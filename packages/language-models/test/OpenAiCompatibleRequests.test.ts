import { expect, layer } from "@effect/vitest"
import type { ModelRequest } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { jsonSchemaOf } from "@voice-agent-platform/core/language-model/StructuredOutput.js"
import { FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect, Redacted, Schema } from "effect"
import { adapterOver, collect, freshFake, lastRequest, testKey } from "./support/OverFake.js"

const tool = {
  name: "book_visit",
  description: "Books a visit",
  parameters: { type: "object", properties: { day: { type: "string" } }, required: ["day"] }
}

/** A conversation with every kind of message: an assistant's call and the tool's result among them. */
const history: ModelRequest["messages"] = [
  { role: "system", content: "You book visits." },
  { role: "user", content: "Friday, please." },
  {
    role: "assistant",
    content: "",
    tool_calls: [{ id: "call_1", name: "book_visit", arguments: '{"day":"friday"}' }]
  },
  { role: "tool", tool_call_id: "call_1", content: '{"booked":true}' },
  { role: "assistant", content: "Booked for Friday." },
  { role: "user", content: "Thanks!" }
]

const wireHistory = [
  { role: "system", content: "You book visits." },
  { role: "user", content: "Friday, please." },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "book_visit", arguments: '{"day":"friday"}' } }
    ]
  },
  { role: "tool", tool_call_id: "call_1", content: '{"booked":true}' },
  { role: "assistant", content: "Booked for Friday." },
  { role: "user", content: "Thanks!" }
]

layer(FakeOpenAiServer.layer, { timeout: "60 seconds" })("OpenAiCompatible: the requests it sends", (it) => {
  it.effect(
    "a streamed request: the overrides, the tools, tool_choice, stream_options, the key as a bearer token",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake, {
          maxTokens: 300,
          allowedModels: ["fake-model", "other-model"]
        })
        yield* collect(
          model.stream({
            messages: history,
            tools: [tool],
            tool_choice: "none",
            model: "other-model",
            temperature: 0.2,
            max_tokens: 50
          })
        )
        const request = yield* lastRequest(fake)
        expect(request.method).toBe("POST")
        expect(request.path).toBe("/v1/chat/completions")
        expect(request.headers["authorization"]).toBe(`Bearer ${testKey}`)
        expect(request.headers["content-type"]).toBe("application/json")
        expect(request.body).toEqual({
          model: "other-model",
          messages: wireHistory,
          max_tokens: 50,
          temperature: 0.2,
          tools: [{ type: "function", function: tool }],
          tool_choice: "none",
          stream: true,
          stream_options: { include_usage: true }
        })
      })
  )

  it.effect(
    "a model the operator does not allow goes to the default model; `any` lets every name through",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const messages = history.slice(0, 2)
        const strict = yield* adapterOver(fake)
        yield* strict.generate({ messages, model: "expensive-model" })
        expect((yield* lastRequest(fake)).body).toMatchObject({ model: "fake-model" })
        yield* collect(strict.stream({ messages, model: "expensive-model" }))
        expect((yield* lastRequest(fake)).body).toMatchObject({ model: "fake-model" })
        const listed = yield* adapterOver(fake, { allowedModels: ["small-model"] })
        yield* listed.generate({ messages, model: "small-model" })
        expect((yield* lastRequest(fake)).body).toMatchObject({ model: "small-model" })
        const open = yield* adapterOver(fake, { allowedModels: "any" })
        yield* open.generate({ messages, model: "expensive-model" })
        expect((yield* lastRequest(fake)).body).toMatchObject({ model: "expensive-model" })
      })
  )

  it.effect(
    "a whole request: the deployment's model and max_tokens, no temperature, no tools, not streamed",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake, { maxTokens: 300 })
        yield* model.generate({ messages: history.slice(0, 2), tools: [] })
        expect((yield* lastRequest(fake)).body).toEqual({
          model: "fake-model",
          messages: wireHistory.slice(0, 2),
          max_tokens: 300
        })
        yield* model.generate({ messages: history.slice(0, 2), tools: [tool] })
        expect((yield* lastRequest(fake)).body).toMatchObject({ tool_choice: "auto" })
      })
  )

  it.effect(
    "a structured request: response_format json_schema, strict, with the schema and its description",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        const schema = Schema.Struct({
          mood: Schema.Literal("happy", "sad"),
          note: Schema.NullOr(Schema.String),
          score: Schema.Number
        })
        const reply = yield* model.structured({
          name: "mood",
          description: "How the caller felt",
          schema,
          messages: history.slice(0, 2),
          temperature: 0
        })
        // the fake's own model fills the schema: the first enum value, null where allowed, 0
        expect(reply.value).toEqual({ mood: "happy", note: null, score: 0 })
        expect((yield* lastRequest(fake)).body).toEqual({
          model: "fake-model",
          messages: wireHistory.slice(0, 2),
          max_tokens: 1024,
          temperature: 0,
          response_format: {
            type: "json_schema",
            json_schema: {
              name: "mood",
              description: "How the caller felt",
              schema: jsonSchemaOf(schema),
              strict: true
            }
          }
        })
      })
  )

  it.effect("no Authorization header without a key (llama.cpp, Ollama), nor with an empty one", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      for (const options of [{ apiKey: undefined }, { apiKey: Redacted.make("") }]) {
        const model = yield* adapterOver(fake, options)
        yield* model.generate({ messages: history.slice(0, 2) })
        expect(Object.keys((yield* lastRequest(fake)).headers)).not.toContain("authorization")
      }
    })
  )
})
