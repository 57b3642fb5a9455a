import type {
  FunctionTool,
  ModelMessage,
  ModelOptions,
  ModelRequest,
  StructuredRequest
} from "@voice-agent-platform/core/language-model/LanguageModel.js"
import { jsonSchemaOf } from "@voice-agent-platform/core/language-model/StructuredOutput.js"

/**
 * The body of `POST {base}/chat/completions` for a request of the port, in the Chat Completions shape
 * every OpenAI-compatible server reads (OpenAI, Groq, Together, vLLM, llama.cpp's server, Ollama).
 */

/** What a request that says nothing gets: the deployment's `LLM_MODEL` and `LLM_MAX_TOKENS`. */
export interface Defaults {
  readonly model: string
  readonly maxTokens: number
}

/** One message on the wire: an assistant's calls as `function` tool calls, a tool's result by its call's id. */
export const wireMessage = (message: ModelMessage): Record<string, unknown> => {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content }
    case "assistant":
      if (message.tool_calls === undefined || message.tool_calls.length === 0) {
        return { role: "assistant", content: message.content }
      }
      return {
        role: "assistant",
        // a message that only calls functions has no content (null, as OpenAI writes it)
        content: message.content === "" ? null : message.content,
        tool_calls: message.tool_calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments }
        }))
      }
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: message.content }
  }
}

/** A function offered to the model. */
export const wireTool = (tool: FunctionTool) => ({
  type: "function",
  function: { name: tool.name, description: tool.description, parameters: tool.parameters }
})

/** What every request carries: the model, the messages, the reply's bound, a temperature only when given. */
const common = (
  request: ModelOptions & { readonly messages: ReadonlyArray<ModelMessage> },
  defaults: Defaults
) => ({
  model: request.model ?? defaults.model,
  messages: request.messages.map(wireMessage),
  max_tokens: request.max_tokens ?? defaults.maxTokens,
  ...(request.temperature === undefined ? {} : { temperature: request.temperature })
})

/**
 * A request for the next assistant message, streamed (with the usage chunk asked for) or not. Functions
 * and `tool_choice` are sent only when some are offered: servers refuse a `tool_choice` without tools.
 */
export const chat = (request: ModelRequest, defaults: Defaults, stream: boolean) => ({
  ...common(request, defaults),
  ...(request.tools === undefined || request.tools.length === 0
    ? {}
    : { tools: request.tools.map(wireTool), tool_choice: request.tool_choice ?? "auto" }),
  ...(stream ? { stream: true, stream_options: { include_usage: true } } : {})
})

/** A request for an object of the request's schema, in the providers' strict JSON-schema mode. */
export const structured = <A, I>(request: StructuredRequest<A, I>, defaults: Defaults) => ({
  ...common(request, defaults),
  response_format: {
    type: "json_schema",
    json_schema: {
      name: request.name,
      ...(request.description === undefined ? {} : { description: request.description }),
      schema: jsonSchemaOf(request.schema),
      strict: true
    }
  }
})
