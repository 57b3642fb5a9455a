/**
 * @voice-agent-platform/language-models: adapters of core's `LanguageModel` port. `OpenAiCompatible`
 * speaks Chat Completions to OpenAI, Groq, Together, vLLM, llama.cpp's server and Ollama. Tests run it
 * against the fake server of `@voice-agent-platform/language-models/testing`.
 */
export * as ChatCompletionsReply from "./ChatCompletionsReply.js"
export * as ChatCompletionsRequest from "./ChatCompletionsRequest.js"
export * as OpenAiCompatible from "./OpenAiCompatible.js"
export * as ProviderErrors from "./ProviderErrors.js"
export * as RetryAfter from "./RetryAfter.js"
export * as ServerSentEvents from "./ServerSentEvents.js"
export * as StreamedReply from "./StreamedReply.js"
