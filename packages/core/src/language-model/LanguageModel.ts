import { Context, type Effect, type Schema, type Stream } from "effect"
import type { GatheredField, PlanStep } from "../agents/Agent.js"
import type { LanguageModelError } from "./LanguageModelErrors.js"

/**
 * The language model port: a conversation and the functions it may call go in; a reply comes out, as a
 * stream of text deltas, whole tool calls and token usage, or at once; and structured output (an object
 * of a given schema). Adapters: the OpenAI-compatible Chat Completions client
 * (`@voice-agent-platform/language-models`) and the embedded rule-based stand-in (`EmbeddedModel`).
 */

/** A JSON Schema object, as a function's parameters or a structured output's shape are sent. */
export type JsonSchema = { readonly [key: string]: unknown }

/** A function the model may call: one per tool of the agent (see `FunctionNames`). */
export interface FunctionTool {
  /** `[a-z0-9_]`, at most 64 characters. */
  readonly name: string
  readonly description: string
  /** `{type: "object", properties, required}`. */
  readonly parameters: JsonSchema
}

/** A function call the model asked for, its arguments the JSON text the model wrote (maybe not valid JSON). */
export interface ToolCall {
  /** The provider's id of the call; a tool message answers it by this id. */
  readonly id: string
  readonly name: string
  readonly arguments: string
}

/** One message of the conversation sent to the model. */
export type ModelMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string; readonly tool_calls?: ReadonlyArray<ToolCall> }
  /** What a function call gave, answering the assistant's call `tool_call_id`. */
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string }

/** Tokens a request cost, as the provider counted them (the embedded model counts words). */
export interface TokenUsage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
}

export const noUsage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 }

/** The sum of two usages. */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens
})

/** Why the model stopped: it finished, it wants functions called, it hit `max_tokens`, or it was filtered. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter"

/** Per-request choices that override the deployment's (an agent's `workflow_configurations.model`). */
export interface ModelOptions {
  /** Another model on the same provider (default `LLM_MODEL`). */
  readonly model?: string
  readonly temperature?: number
  /** The longest reply, in tokens (default `LLM_MAX_TOKENS`). */
  readonly max_tokens?: number
}

/** A conversation as the guide carries it: a run's turns, in order. */
export interface GuideTranscript {
  /** The run it comes from; null for a conversation still going on. */
  readonly run_id: number | null
  readonly turns: ReadonlyArray<{ readonly role: "user" | "assistant"; readonly text: string }>
}

/**
 * What the engine knows of the conversation's agent, in structured form. A language model reads all of it
 * from the messages (the system prompt, the function descriptions); the embedded rule-based model, which
 * cannot read prose, walks these instead. Adapters of real models ignore it.
 */
export interface ConversationGuide {
  /** The first message, as the run sees it. */
  readonly first_message: string
  /** The conversation plan's steps, in order. */
  readonly plan: ReadonlyArray<PlanStep>
  /** Question and answer pairs the agent knows (from its prompt and the knowledge given for this turn). */
  readonly faq: ReadonlyArray<{ readonly question: string; readonly answer: string }>
  /** The knowledge chunks given for this turn, most relevant first. */
  readonly knowledge: ReadonlyArray<string>
  /** The data the agent gathers. */
  readonly data_fields: ReadonlyArray<GatheredField>
  /** For each function, the phrases of a caller that ask for it. */
  readonly triggers: Readonly<Record<string, ReadonlyArray<string>>>
  /** The function that ends the conversation, when the agent has one. */
  readonly end_function: string | null
  /** The agent's disposition codes and what each means (its `call_disposition_codes`). */
  readonly disposition_codes: Readonly<Record<string, string>>
  /**
   * Conversations a structured request reads (the ended run a `call_analysis` reads; the recent runs an
   * `improvement_suggestions` reads), as the messages also give them in text. Empty for a conversation's
   * next message, whose history is the messages themselves.
   */
  readonly transcripts: ReadonlyArray<GuideTranscript>
}

/** A guide that knows nothing: every list empty. */
export const emptyGuide: ConversationGuide = {
  first_message: "",
  plan: [],
  faq: [],
  knowledge: [],
  data_fields: [],
  triggers: {},
  end_function: null,
  disposition_codes: {},
  transcripts: []
}

/** A request for the next assistant message. */
export interface ModelRequest extends ModelOptions {
  readonly messages: ReadonlyArray<ModelMessage>
  /** The functions offered; none when absent or empty. */
  readonly tools?: ReadonlyArray<FunctionTool>
  /** `none`: the model must answer in text even though functions are offered. Default `auto`. */
  readonly tool_choice?: "auto" | "none"
  readonly guide?: ConversationGuide
}

/** What a streamed reply is made of, in order: text deltas and whole tool calls, then usage and the finish. */
export type ModelEvent =
  | { readonly _tag: "TextDelta"; readonly text: string }
  /** A complete call: a streaming adapter reassembles its fragments before emitting it. */
  | { readonly _tag: "ToolCall"; readonly call: ToolCall }
  | { readonly _tag: "Usage"; readonly usage: TokenUsage }
  | { readonly _tag: "Finish"; readonly reason: FinishReason }

/** A whole reply. */
export interface ModelReply {
  readonly text: string
  readonly tool_calls: ReadonlyArray<ToolCall>
  readonly usage: TokenUsage
  readonly finish_reason: FinishReason
}

/**
 * A request for an object of a schema (structured output). The JSON Schema sent is derived from `schema`
 * (`StructuredOutput.jsonSchemaOf`): keep it to what providers' strict modes accept (objects whose
 * properties are all required, nullable unions, literals, arrays), and bound lengths after decoding.
 */
export interface StructuredRequest<A, I> extends ModelOptions {
  /** `[a-zA-Z0-9_-]`, at most 64 characters: `call_analysis`, `improvement_suggestions`. */
  readonly name: string
  readonly description?: string
  readonly schema: Schema.Schema<A, I>
  readonly messages: ReadonlyArray<ModelMessage>
  readonly guide?: ConversationGuide
}

/** A structured reply, decoded with the request's schema. */
export interface StructuredReply<A> {
  readonly value: A
  readonly usage: TokenUsage
}

export class LanguageModel extends Context.Tag("@voice-agent-platform/core/LanguageModel")<
  LanguageModel,
  {
    /** The provider's name for logs and metrics (`openai`, `embedded`); never a key or a URL with credentials. */
    readonly provider: string
    /** The next assistant message as it is produced. The stream fails with the request's error. */
    readonly stream: (request: ModelRequest) => Stream.Stream<ModelEvent, LanguageModelError>
    /** The next assistant message, whole. */
    readonly generate: (request: ModelRequest) => Effect.Effect<ModelReply, LanguageModelError>
    /**
     * An object of the request's schema. A reply that is not JSON of that schema is `ModelUnavailable`
     * (the model failed at its task; asking again may work).
     */
    readonly structured: <A, I>(
      request: StructuredRequest<A, I>
    ) => Effect.Effect<StructuredReply<A>, LanguageModelError>
  }
>() {}
