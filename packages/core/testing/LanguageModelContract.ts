import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Effect, type Schema, Stream } from "effect"
import type { Layer } from "effect"
import type { GatheredField } from "../src/agents/Agent.js"
import * as CallAnalysis from "../src/analysis/CallAnalysis.js"
import type {
  ConversationGuide,
  FunctionTool,
  ModelEvent,
  ModelMessage,
  ModelRequest,
  TokenUsage
} from "../src/language-model/LanguageModel.js"
import { LanguageModel } from "../src/language-model/LanguageModel.js"

/** What a case needs the model to answer; `prepare` turns it into a conversation that makes the model answer it. */
export type Provocation =
  /** A reply whose text is exactly `text`, with no calls. */
  | { readonly _tag: "Text"; readonly text: string }
  /** One call of `tool` (which the contract offers, alone) with arguments that parse to `arguments`, and no text. */
  | {
      readonly _tag: "ToolCall"
      readonly tool: FunctionTool
      readonly arguments: Readonly<Record<string, unknown>>
    }
  /**
   * A `call_analysis` of an agent with these data fields and disposition codes (the contract asks with
   * `CallAnalysis.schemaFor(data_fields, disposition_codes)`), decoding to `value`'s data and disposition
   * (and a summary: an adapter over a scripted server answers `value.summary`).
   */
  | {
      readonly _tag: "Structured"
      readonly data_fields: ReadonlyArray<GatheredField>
      readonly disposition_codes: Readonly<Record<string, string>>
      readonly value: CallAnalysis.Analysis
    }

/** The conversation a case sends: the messages, and the guide a rule-based model reads. */
export interface Prepared {
  readonly messages: ReadonlyArray<ModelMessage>
  readonly guide?: ConversationGuide
}

/** The adapter under test and how to make it answer each case. */
export interface LanguageModelContractOptions<R> {
  /** The `LanguageModel` (and whatever `prepare` needs, such as a fake server's control client). */
  readonly layer: Layer.Layer<LanguageModel | R, unknown>
  /**
   * Called once before every request a case sends (a case that compares `stream` with `generate` sends
   * the same provocation twice and calls this twice, stream first), with what the model must answer.
   */
  readonly prepare: (provocation: Provocation) => Effect.Effect<Prepared, never, R>
}

/** The provocations the cases send, as constants an adapter's own tests may reuse. */
export const provocations = {
  text: { _tag: "Text", text: "Hello! This is Ada from Bright Dental. How can I help you today?" },
  toolCall: {
    _tag: "ToolCall",
    tool: {
      name: "send_brochure",
      description: "Sends the clinic's brochure to the caller's e-mail address",
      parameters: {
        type: "object",
        properties: { email: { type: "string", description: "The caller's e-mail address" } },
        required: ["email"]
      }
    },
    arguments: { email: "ana@example.com" }
  },
  structured: {
    _tag: "Structured",
    data_fields: [
      { name: "email", description: "The caller's e-mail address", type: "string" },
      { name: "wants_callback", description: "Whether the caller wants a call back", type: "boolean" }
    ],
    disposition_codes: {
      interested: "The caller asked for the brochure",
      not_interested: "The caller declined"
    },
    value: {
      gathered_data: { email: "ana@example.com", wants_callback: null },
      disposition: "interested",
      summary: "The caller asked for the brochure at ana@example.com."
    }
  }
} as const satisfies Record<string, Provocation>

const isCount = (value: number) => Number.isInteger(value) && value >= 0

const expectUsage = (usage: TokenUsage) => {
  expect(isCount(usage.prompt_tokens), `prompt_tokens ${usage.prompt_tokens}`).toBe(true)
  expect(isCount(usage.completion_tokens), `completion_tokens ${usage.completion_tokens}`).toBe(true)
}

/**
 * The order every stream keeps: text deltas (never empty) and whole calls first, then at most one usage
 * (an adapter reports usage only when it knows it), then exactly one finish, last.
 */
const expectOrder = (events: ReadonlyArray<ModelEvent>) => {
  const tail = events.findIndex((event) => event._tag === "Usage" || event._tag === "Finish")
  expect(tail, "a stream ends with a finish").toBeGreaterThanOrEqual(0)
  expect(events.slice(tail).every((event) => event._tag === "Usage" || event._tag === "Finish")).toBe(true)
  expect(events.filter((event) => event._tag === "Usage").length).toBeLessThanOrEqual(1)
  expect(events.filter((event) => event._tag === "Finish")).toHaveLength(1)
  expect(events[events.length - 1]?._tag).toBe("Finish")
  for (const event of events) {
    if (event._tag === "TextDelta") expect(event.text).not.toBe("")
    if (event._tag === "Usage") expectUsage(event.usage)
  }
}

const textOf = (events: ReadonlyArray<ModelEvent>) =>
  events.flatMap((event) => (event._tag === "TextDelta" ? [event.text] : [])).join("")
const callsOf = (events: ReadonlyArray<ModelEvent>) =>
  events.flatMap((event) => (event._tag === "ToolCall" ? [event.call] : []))
const finishOf = (events: ReadonlyArray<ModelEvent>) =>
  events.flatMap((event) => (event._tag === "Finish" ? [event.reason] : []))[0]

/**
 * The behaviour every `LanguageModel` adapter must have, written once and run against each: the
 * OpenAI-compatible adapter over the fake server (`packages/language-models`), the embedded rule-based
 * model (core). Call it at the top level of a test file:
 *
 * ```ts
 * languageModelContract("embedded", {
 *   layer: EmbeddedModel.layer,
 *   prepare: (provocation) => Effect.succeed({ messages: [...], guide: {...} })
 * })
 * ```
 *
 * Each case hands `prepare` a `Provocation` (the constants in `provocations`) and sends what it answers:
 * an adapter over a scripted server queues the answer and returns any conversation; a rule-based model
 * returns a conversation and guide its rules answer that way (the first message for `Text`, a trigger
 * phrase for `ToolCall`, a transcript that says the values for `Structured`). The cases:
 *
 * - a text reply: the stream's deltas concatenate to the provoked text, which `generate` gives too;
 *   no calls; finish `stop`; usage whole and non-negative;
 * - a tool call: one whole call (an id, the tool's name, arguments as JSON text of the provoked object);
 *   finish `tool_calls`; stream and generate agree;
 * - structured output: the `call_analysis` object decodes with the provoked data and disposition, and a
 *   summary (a model's own words: any text but empty);
 * - events order: deltas and calls before usage and finish; at most one usage (only when known);
 *   exactly one finish, last.
 */
export const languageModelContract = <R>(name: string, options: LanguageModelContractOptions<R>) =>
  layer(options.layer, { timeout: "60 seconds" })(`language model contract: ${name}`, (it) => {
    const streamed = (request: ModelRequest) =>
      Effect.flatMap(LanguageModel, (model) => Stream.runCollect(model.stream(request))).pipe(
        Effect.map(Chunk.toReadonlyArray)
      )
    const generated = (request: ModelRequest) =>
      Effect.flatMap(LanguageModel, (model) => model.generate(request))
    const textRequest = Effect.map(options.prepare(provocations.text), (prepared) => ({ ...prepared }))
    const toolRequest = Effect.map(options.prepare(provocations.toolCall), (prepared): ModelRequest => ({
      ...prepared,
      tools: [provocations.toolCall.tool],
      tool_choice: "auto"
    }))

    describe("replies", () => {
      it.effect("a text reply: the stream's deltas make the text generate gives, then stop", () =>
        Effect.gen(function* () {
          const events = yield* streamed(yield* textRequest)
          const reply = yield* generated(yield* textRequest)
          expect(textOf(events)).toBe(provocations.text.text)
          expect(reply.text).toBe(provocations.text.text)
          expect(callsOf(events)).toEqual([])
          expect(reply.tool_calls).toEqual([])
          expect(finishOf(events)).toBe("stop")
          expect(reply.finish_reason).toBe("stop")
          expectUsage(reply.usage)
          expectOrder(events)
        })
      )

      it.effect(
        "a tool call: whole, with an id, the tool's name and JSON arguments; stream and generate agree",
        () =>
          Effect.gen(function* () {
            const events = yield* streamed(yield* toolRequest)
            const reply = yield* generated(yield* toolRequest)
            const calls = callsOf(events)
            expect(calls).toHaveLength(1)
            expect(reply.tool_calls).toHaveLength(1)
            for (const call of [calls[0]!, reply.tool_calls[0]!]) {
              expect(call.id).not.toBe("")
              expect(call.name).toBe(provocations.toolCall.tool.name)
              expect(JSON.parse(call.arguments)).toEqual(provocations.toolCall.arguments)
            }
            expect(textOf(events)).toBe("")
            expect(reply.text).toBe("")
            expect(finishOf(events)).toBe("tool_calls")
            expect(reply.finish_reason).toBe("tool_calls")
            expectUsage(reply.usage)
          })
      )

      it.effect("structured output: an object of the schema with the provoked data and disposition", () =>
        Effect.gen(function* () {
          const { data_fields, disposition_codes, value } = provocations.structured
          const prepared = yield* options.prepare(provocations.structured)
          const model = yield* LanguageModel
          const reply = yield* model.structured({
            ...prepared,
            name: CallAnalysis.name,
            // `schemaFor` builds its fields from `Schema.Any`, so its type says it may need a context: it needs none
            schema: CallAnalysis.schemaFor(
              data_fields,
              disposition_codes
            ) as unknown as Schema.Schema<CallAnalysis.Analysis>
          })
          // the data and the disposition exactly; the summary is the model's own words
          expect(reply.value.gathered_data).toEqual(value.gathered_data)
          expect(reply.value.disposition).toEqual(value.disposition)
          expect(reply.value.summary.trim()).not.toBe("")
          expectUsage(reply.usage)
        })
      )
    })

    describe("streams", () => {
      it.effect("events come in order: text and calls, at most one usage, exactly one finish, last", () =>
        Effect.gen(function* () {
          const text = yield* streamed(yield* textRequest)
          const call = yield* streamed(yield* toolRequest)
          for (const events of [text, call]) {
            expectOrder(events)
            expect(events.some((event) => event._tag === "TextDelta" || event._tag === "ToolCall")).toBe(true)
          }
        })
      )
    })
  })
