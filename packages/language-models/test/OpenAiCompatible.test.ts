import { expect, layer } from "@effect/vitest"
import type { ModelRequest } from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { FakeModel, FakeOpenAiServer } from "@voice-agent-platform/language-models/testing"
import { Effect, Option, Stream } from "effect"
import { abortSeen, adapterOver, collect, freshFake, liveFakeLayer } from "./support/OverFake.js"

const conversation: ModelRequest = {
  messages: [
    { role: "system", content: "You are the receptionist of Bright Dental." },
    { role: "user", content: "When do you open tomorrow?" }
  ]
}
/** What the fake's chunks are built for: a streamed request asking for usage. */
const streamedBody = { model: "fake-model", stream: true, stream_options: { include_usage: true } }
const usage = { prompt_tokens: 21, completion_tokens: 6 }

layer(FakeOpenAiServer.layer, { timeout: "60 seconds" })("OpenAiCompatible over the fake server", (it) => {
  it.effect(
    "streams the text in deltas, then usage and the finish; generate gives the same reply whole",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        const reply = { content: "We open at nine tomorrow.", usage }
        yield* fake.script({ kind: "reply", ...reply, piece: 4 }, { kind: "reply", ...reply })
        const events = yield* collect(model.stream(conversation))
        expect(events).toEqual([
          ...["We o", "pen ", "at n", "ine ", "tomo", "rrow", "."].map((text) => ({
            _tag: "TextDelta",
            text
          })),
          { _tag: "Usage", usage },
          { _tag: "Finish", reason: "stop" }
        ])
        expect(yield* model.generate(conversation)).toEqual({
          text: "We open at nine tomorrow.",
          tool_calls: [],
          usage,
          finish_reason: "stop"
        })
      })
  )

  it.effect("puts two calls interleaved by index back together, their arguments split mid-token", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      const reply = {
        content: "Let me check.",
        tool_calls: [
          { id: "call_weather", name: "weather", arguments: '{"city":"Kraków","unit":"celsius"}' },
          { id: "call_book", name: "book_visit", arguments: '{"day":"2026-01-16","time":"09:30"}' }
        ],
        usage
      }
      const chunks = FakeModel.streamChunks(reply, streamedBody, { piece: 3, interleave: true })
      // the two calls' fragments really alternate
      expect(
        chunks
          .flatMap((chunk) => {
            const choices = chunk["choices"] as ReadonlyArray<{
              delta: { tool_calls?: ReadonlyArray<{ index: number }> }
            }>
            return choices.flatMap((choice) => (choice.delta.tool_calls ?? []).map((call) => call.index))
          })
          .slice(0, 4)
      ).toEqual([0, 1, 0, 1])
      yield* fake.script({ kind: "sse", events: chunks }, { kind: "reply", ...reply })
      const events = yield* collect(model.stream({ ...conversation, tools: [] }))
      const calls = reply.tool_calls.map((call) => ({ _tag: "ToolCall", call }))
      expect(events.filter((event) => event._tag !== "TextDelta")).toEqual([
        ...calls,
        { _tag: "Usage", usage },
        { _tag: "Finish", reason: "tool_calls" }
      ])
      expect(events.findIndex((event) => event._tag === "ToolCall")).toBeGreaterThan(
        events.map((event) => event._tag).lastIndexOf("TextDelta")
      )
      const whole = yield* model.generate(conversation)
      expect(whole).toEqual({
        text: "Let me check.",
        tool_calls: reply.tool_calls,
        usage,
        finish_reason: "tool_calls"
      })
    })
  )

  it.effect("reports usage only when the server sent it: a stream without it has no usage event", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      const chunks = FakeModel.streamChunks({ content: "Hi" }, { model: "fake-model" })
      yield* fake.script(
        { kind: "sse", events: chunks },
        {
          kind: "json",
          body: { choices: [{ message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }] }
        }
      )
      expect(yield* collect(model.stream(conversation))).toEqual([
        { _tag: "TextDelta", text: "Hi" },
        { _tag: "Finish", reason: "stop" }
      ])
      expect((yield* model.generate(conversation)).usage).toEqual({ prompt_tokens: 0, completion_tokens: 0 })
    })
  )

  it.effect(
    "reads SSE split anywhere across network writes: comments, CRLF, multi-line data, a split [DONE]",
    () =>
      Effect.gen(function* () {
        const fake = yield* freshFake
        const model = yield* adapterOver(fake)
        yield* fake.script({
          kind: "raw",
          headers: { "content-type": "text/event-stream; charset=utf-8" },
          event_delay_ms: 5,
          chunks: [
            ": OPENROUTER PROCESSING\n\n",
            'data: {"choices":[{"index":0,"del',
            'ta":{"content":"Dzień "}}]}\r',
            '\n\r\ndata:{"choices":[{"index":0,"delta":{"content":"dobry"}}]}\n\n',
            'data: {"choices":\ndata: [{"index":0,"delta":{},"finish_reason":"length"}],\n',
            'data: "usage":{"prompt_tokens":3,"completion_tokens":2}}\n\ndata: [DO',
            "NE]\n\n"
          ]
        })
        expect(yield* collect(model.stream(conversation))).toEqual([
          { _tag: "TextDelta", text: "Dzień " },
          { _tag: "TextDelta", text: "dobry" },
          { _tag: "Usage", usage: { prompt_tokens: 3, completion_tokens: 2 } },
          { _tag: "Finish", reason: "length" }
        ])
      })
  )

  it.effect("takes a whole JSON completion answered to a streamed request as the same reply", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      yield* fake.script({
        kind: "json",
        body: FakeModel.completion({ content: "Filtered", finish_reason: "content_filter", usage }, {})
      })
      expect(yield* collect(model.stream(conversation))).toEqual([
        { _tag: "TextDelta", text: "Filtered" },
        { _tag: "Usage", usage },
        { _tag: "Finish", reason: "content_filter" }
      ])
    })
  )

  it.effect("answers from the fake's own model when nothing is scripted", () =>
    Effect.gen(function* () {
      const fake = yield* freshFake
      const model = yield* adapterOver(fake)
      const reply = yield* model.generate(conversation)
      expect(reply.text).toBe("You said: When do you open tomorrow?")
      expect(reply.usage).toEqual({ prompt_tokens: 12, completion_tokens: 7 })
    })
  )
})

// On the real clock: the fake writes in real time and the abort is seen by its process.
layer(liveFakeLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "OpenAiCompatible over the fake server, in real time",
  (it) => {
    it.effect(
      "passes each delta on as it arrives: the first is there while the server is still writing",
      () =>
        Effect.gen(function* () {
          const fake = yield* freshFake
          const model = yield* adapterOver(fake)
          const chunks = FakeModel.streamChunks({ content: "Hello there" }, streamedBody)
          yield* fake.script({ kind: "sse", events: chunks, hang_after: 2 })
          expect(yield* Stream.runHead(model.stream(conversation))).toEqual(
            Option.some({ _tag: "TextDelta", text: "Hello " })
          )
          // the consumer stopped: the request was aborted rather than left open
          expect(yield* abortSeen(fake)).toBe(true)
        })
    )
  }
)
