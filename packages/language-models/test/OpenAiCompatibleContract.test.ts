import { type Provocation, languageModelContract } from "@voice-agent-platform/core/testing"
import { OpenAiCompatible } from "@voice-agent-platform/language-models"
import {
  FakeOpenAiServer,
  type Fragmenting,
  type ScriptedReply
} from "@voice-agent-platform/language-models/testing"
import { Effect, Layer } from "effect"

/** The reply a provocation asks for, as the fake server is scripted with it. */
const replyFor = (provocation: Provocation): ScriptedReply => {
  switch (provocation._tag) {
    case "Text":
      return { content: provocation.text }
    case "ToolCall":
      return {
        tool_calls: [{ name: provocation.tool.name, arguments: JSON.stringify(provocation.arguments) }]
      }
    case "Structured":
      return { content: JSON.stringify(provocation.value) }
  }
}

const adapter = Layer.unwrapEffect(
  Effect.map(FakeOpenAiServer.FakeOpenAiServer, (fake) =>
    OpenAiCompatible.layer({ baseUrl: fake.baseUrl, model: "fake-model" })
  )
)

// Servers cut a stream differently: llama.cpp and Ollama send a call whole in one chunk, OpenAI in
// small pieces; the same contract holds for both.
const modes: ReadonlyArray<readonly [string, Fragmenting]> = [
  ["whole deltas and calls", { piece: 100_000 }],
  ["one character per delta, calls' fragments interleaved", { piece: 1, interleave: true }]
]

for (const [mode, fragmenting] of modes) {
  languageModelContract(`OpenAI-compatible over the fake server, ${mode}`, {
    layer: Layer.provideMerge(adapter, FakeOpenAiServer.layer),
    prepare: (provocation) =>
      Effect.gen(function* () {
        const fake = yield* FakeOpenAiServer.FakeOpenAiServer
        // every request is prepared right before it is sent: nothing of a failed case is left queued
        yield* fake.reset
        yield* fake.script({ kind: "reply", ...replyFor(provocation), ...fragmenting })
        return {
          messages: [
            { role: "system", content: "You are the receptionist of Bright Dental." },
            { role: "user", content: "Hello?" }
          ]
        }
      })
  })
}
