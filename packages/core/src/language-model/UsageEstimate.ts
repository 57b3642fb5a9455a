import type { ModelRequest, TokenUsage } from "./LanguageModel.js"
import type { ReplySoFar } from "./ModelReplies.js"

/**
 * The tokens of a reply that was cut before the provider said what it used (a stream stopped by its
 * deadline, an error or the client): estimated at one token per 4 characters (a common rule of thumb for
 * English text; a provider's own count is always used when it gave one), so that a cut reply is charged
 * too: otherwise asking for endless text and letting it time out would cost nothing.
 */

/** Characters counted as one token. */
export const charsPerToken = 4

const tokens = (chars: number): number => Math.ceil(chars / charsPerToken)

/** The estimated usage of `request` answered `partial` so far. */
export const estimate = (request: ModelRequest, partial: ReplySoFar): TokenUsage => ({
  prompt_tokens: tokens(JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length),
  completion_tokens: tokens(
    partial.text.length +
      partial.tool_calls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0)
  )
})
