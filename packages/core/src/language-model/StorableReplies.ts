import { Effect, Stream } from "effect"
import * as StorableText from "../text/StorableText.js"
import type { LanguageModel, ModelEvent, ModelReply, ToolCall } from "./LanguageModel.js"

/**
 * A model's answers as storage can keep them (`StorableText`): a provider may answer a NUL or half of a
 * surrogate pair, which PostgreSQL refuses, and a reply kept as a transcript, a tool call's arguments
 * logged on a run, or an analysis written on it would then fail. Adapters of real models wrap their
 * service once with `storable`.
 */

const call = (toolCall: ToolCall): ToolCall => ({
  id: StorableText.clean(toolCall.id),
  name: StorableText.clean(toolCall.name),
  arguments: StorableText.clean(toolCall.arguments)
})

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * A stream's events cleaned: a delta ending in the first half of a surrogate pair keeps it back for the
 * next delta (a pair cut between two deltas is one character, not two halves), and gives it up, cleaned,
 * before the first event that is not text.
 */
const events = <E>(stream: Stream.Stream<ModelEvent, E>) =>
  stream.pipe(
    Stream.mapAccum("", (held, modelEvent): readonly [string, ReadonlyArray<ModelEvent>] => {
      if (modelEvent._tag === "TextDelta") {
        const text = held + modelEvent.text
        const keep = text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1)) ? 1 : 0
        const ready = StorableText.clean(text.slice(0, text.length - keep))
        return [text.slice(text.length - keep), ready === "" ? [] : [{ _tag: "TextDelta", text: ready }]]
      }
      const flushed: ReadonlyArray<ModelEvent> =
        held === "" ? [] : [{ _tag: "TextDelta", text: StorableText.clean(held) }]
      return [
        "",
        [
          ...flushed,
          modelEvent._tag === "ToolCall" ? { _tag: "ToolCall", call: call(modelEvent.call) } : modelEvent
        ]
      ]
    }),
    Stream.mapConcat((ready) => ready)
  )

const reply = (modelReply: ModelReply): ModelReply => ({
  ...modelReply,
  text: StorableText.clean(modelReply.text),
  tool_calls: modelReply.tool_calls.map(call)
})

/** The service with every answer cleaned. */
export const storable = (service: LanguageModel["Type"]): LanguageModel["Type"] => ({
  provider: service.provider,
  stream: (request) => events(service.stream(request)),
  generate: (request) => Effect.map(service.generate(request), reply),
  structured: (request) =>
    Effect.map(service.structured(request), (answer) => ({
      ...answer,
      value: StorableText.cleanValue(answer.value)
    }))
})
