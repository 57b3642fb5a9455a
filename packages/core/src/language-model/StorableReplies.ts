import { Chunk, Effect, Stream } from "effect"
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
 * before the first event that is not text. One stage a chunk (the half held between chunks in the
 * stream's own state), not a stage to hold and another to flatten: every network read of a streamed reply
 * passes it.
 */
const events = <E>(stream: Stream.Stream<ModelEvent, E>) =>
  Stream.suspend(() => {
    let held = ""
    return Stream.mapChunks(stream, (chunk) => {
      const ready: Array<ModelEvent> = []
      for (const modelEvent of chunk) {
        if (modelEvent._tag === "TextDelta") {
          const text = held + modelEvent.text
          const keep = text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1)) ? 1 : 0
          const cleaned = StorableText.clean(text.slice(0, text.length - keep))
          held = text.slice(text.length - keep)
          if (cleaned !== "") ready.push({ _tag: "TextDelta", text: cleaned })
          continue
        }
        if (held !== "") ready.push({ _tag: "TextDelta", text: StorableText.clean(held) })
        held = ""
        ready.push(
          modelEvent._tag === "ToolCall" ? { _tag: "ToolCall", call: call(modelEvent.call) } : modelEvent
        )
      }
      return Chunk.unsafeFromArray(ready)
    })
  })

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
