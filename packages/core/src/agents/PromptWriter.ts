import { Context, type Effect, Schema } from "effect"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { WorkflowDefinition } from "./Agent.js"
import type { CallScriptRequest } from "./CallScript.js"

/**
 * The language model could not write the prompt; the deterministic composition is used instead. `usage`:
 * the tokens a reply that was refused (empty, too long) still cost, charged all the same.
 */
export class PromptWriterFailure extends Schema.TaggedError<PromptWriterFailure>()("PromptWriterFailure", {
  reason: Schema.String,
  usage: Schema.optional(
    Schema.Struct({ prompt_tokens: Schema.NonNegativeInt, completion_tokens: Schema.NonNegativeInt })
  )
}) {}

/** A prompt the model wrote, and the tokens it took (charged to the organization as a `prompt` ledger line). */
export interface WrittenPrompt {
  readonly system_prompt: string
  readonly usage: TokenUsage
}

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
    }) => Effect.Effect<WrittenPrompt, PromptWriterFailure>
  }
>() {}
