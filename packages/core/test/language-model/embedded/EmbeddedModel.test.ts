import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Exit, Schema, Stream } from "effect"
import * as EmbeddedModel from "../../../src/language-model/embedded/EmbeddedModel.js"
import * as TokenCount from "../../../src/language-model/embedded/TokenCount.js"
import { LanguageModel } from "../../../src/language-model/LanguageModel.js"
import * as ModelReplies from "../../../src/language-model/ModelReplies.js"
import { clinic, tools } from "./EmbeddedFixtures.js"

const request = {
  guide: clinic,
  tools,
  messages: [
    { role: "system" as const, content: "You are Ann." },
    { role: "assistant" as const, content: "Hello, this is Ann from Dental Care." },
    { role: "user" as const, content: "When are you open?" }
  ]
}

describe("TokenCount", () => {
  it("counts words and punctuation", () => {
    expect(TokenCount.count("Hello, world! It's 9:30.")).toBe(11)
    expect(TokenCount.count("   ")).toBe(0)
    expect(TokenCount.count("Zażółć gęślą")).toBe(2)
  })

  it("cuts after a number of tokens and splits into deltas that join back", () => {
    expect(TokenCount.cutAfter("One, two three.", 3)).toBe("One, two")
    expect(TokenCount.cutAfter("One two", 5)).toBe("One two")
    expect(TokenCount.cutAfter("One two", 0)).toBe("")
    expect(TokenCount.deltas("  Hello  big world ")).toEqual(["  ", "Hello  ", "big ", "world "])
    expect(TokenCount.deltas("")).toEqual([])
  })
})

describe("EmbeddedModel", () => {
  it.effect("is the LanguageModel service, provider embedded, answering with usage and finish", () =>
    Effect.gen(function* () {
      const model = yield* LanguageModel
      expect(model.provider).toBe("embedded")
      const reply = yield* model.generate(request)
      expect(reply).toEqual({
        text: "We are open from 8 to 18 on weekdays. Is Monday at 10 still fine for you?",
        tool_calls: [],
        usage: { prompt_tokens: TokenCount.countMessages(request.messages), completion_tokens: 19 },
        finish_reason: "stop"
      })
    }).pipe(Effect.provide(EmbeddedModel.layer))
  )

  it.effect("streams the same reply, word by word, then its calls, usage and finish", () =>
    Effect.gen(function* () {
      const model = yield* LanguageModel
      const events = Chunk.toReadonlyArray(yield* Stream.runCollect(model.stream(request)))
      expect(events.filter((event) => event._tag === "TextDelta").length).toBeGreaterThan(5)
      expect(ModelReplies.finish(events.reduce(ModelReplies.add, ModelReplies.empty))).toEqual(
        yield* model.generate(request)
      )
      const calling = {
        ...request,
        messages: [...request.messages, { role: "user" as const, content: "check my order Z-1" }]
      }
      const tags = Chunk.toReadonlyArray(yield* Stream.runCollect(model.stream(calling))).map(
        (event) => event._tag
      )
      expect(tags).toEqual(["ToolCall", "Usage", "Finish"])
      expect((yield* model.generate(calling)).finish_reason).toBe("tool_calls")
    }).pipe(Effect.provide(EmbeddedModel.layer))
  )

  it("cuts a reply at max_tokens, without its calls, finishing with length", () => {
    const cut = EmbeddedModel.replyTo({ ...request, max_tokens: 4 })
    expect(cut).toMatchObject({ text: "We are open from", tool_calls: [], finish_reason: "length" })
    expect(cut.usage.completion_tokens).toBe(4)
    const deployment = EmbeddedModel.replyTo(request, { max_tokens: 2 })
    expect(deployment.text).toBe("We are")
    // the request's own limit overrides the deployment's
    expect(EmbeddedModel.replyTo({ ...request, max_tokens: 100 }, { max_tokens: 2 }).finish_reason).toBe(
      "stop"
    )
    const call = EmbeddedModel.replyTo({
      ...request,
      max_tokens: 3,
      messages: [...request.messages, { role: "user", content: "check my order Z-1" }]
    })
    expect(call).toMatchObject({ text: "", tool_calls: [], finish_reason: "length" })
  })

  it.effect("answers structured requests decoded with their schema", () =>
    Effect.gen(function* () {
      const model = yield* LanguageModel
      const schema = Schema.Struct({
        email: Schema.NullOr(Schema.String),
        count: Schema.Number,
        ok: Schema.Boolean,
        size: Schema.Literal("small", "large"),
        tags: Schema.Array(Schema.String)
      })
      const reply = yield* model.structured({
        name: "contact_card",
        schema,
        messages: [{ role: "user", content: "I'd like a large one, mail me at ann@example.com" }]
      })
      expect(reply.value).toEqual({ email: "ann@example.com", count: 0, ok: false, size: "large", tags: [] })
      expect(reply.usage.completion_tokens).toBeGreaterThan(0)
    }).pipe(Effect.provide(EmbeddedModel.layer))
  )

  it.effect("reports a structured answer its schema refuses as ModelUnavailable, with the reason", () =>
    Effect.gen(function* () {
      const model = yield* LanguageModel
      const exit = yield* Effect.exit(
        model.structured({
          name: "strict",
          schema: Schema.Struct({ code: Schema.String.pipe(Schema.minLength(3)) }),
          messages: []
        })
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
        expect(error?._tag).toBe("ModelUnavailable")
        expect(error?.message).toMatch(
          /^model_unavailable: the embedded model's strict answer is unusable: the reply does not fit the schema/
        )
      }
    }).pipe(Effect.provide(EmbeddedModel.layer))
  )
})
