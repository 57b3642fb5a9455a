import { Context, type Effect, Schema } from "effect"
import type { WorkflowDefinition } from "./Agent.js"
import type { CallScriptRequest } from "./CallScript.js"

/** The language model could not write the prompt; the deterministic composition is used instead. */
export class PromptWriterFailure extends Schema.TaggedError<PromptWriterFailure>()("PromptWriterFailure", {
  reason: Schema.String
}) {}

/**
 * A language model that rewrites a composed system prompt (`generate_with_ai`). Optional: when no layer
 * provides it, or when it fails, agents keep the deterministic composition.
 */
export class PromptWriter extends Context.Tag("@voice-agent-platform/core/PromptWriter")<
  PromptWriter,
  {
    readonly writeSystemPrompt: (input: {
      readonly request: CallScriptRequest
      readonly draft: WorkflowDefinition
    }) => Effect.Effect<string, PromptWriterFailure>
  }
>() {}
