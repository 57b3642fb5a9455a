import { Context, type Effect } from "effect"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import type { WorkflowDefinition } from "./Agent.js"
import type { CallScriptRequest } from "./CallScript.js"
import { PromptWriterFailure } from "./AgentErrors.js"

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
