import { Context, Duration, Effect, Either, Exit, Layer, Stream } from "effect"
import type { DocumentId } from "../knowledge-base/Document.js"
import { KnowledgeBase } from "../knowledge-base/KnowledgeBase.js"
import type {
  ModelEvent,
  ModelMessage,
  ModelOptions,
  ModelRequest,
  TokenUsage,
  ToolCall
} from "../language-model/LanguageModel.js"
import { addUsage, LanguageModel, noUsage } from "../language-model/LanguageModel.js"
import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import { ModelDeadline } from "../language-model/LanguageModelErrors.js"
import * as ModelReplies from "../language-model/ModelReplies.js"
import * as UsageEstimate from "../language-model/UsageEstimate.js"
import type { RunAgentVersion } from "../calls/RuntimeTools.js"
import { RuntimeTools } from "../calls/RuntimeTools.js"
import * as CodePoints from "../text/CodePoints.js"
import type { ToolResult } from "../tools/ToolResult.js"
import * as AgentFunctions from "./AgentFunctions.js"
import * as ConversationGuides from "./ConversationGuides.js"
import * as ConversationHistory from "./ConversationHistory.js"
import * as ConversationLimits from "./ConversationLimits.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** Where the conversation happens: a text chat, or a voice call (phone or browser). */
export type Channel = "chat" | "voice"

/** What the agent's next message is made from. */
export interface ReplyInput {
  /** The run's agent version (its prompt and first message filled from the run, its active tools). */
  readonly version: RunAgentVersion
  /** The conversation so far, before the new message. */
  readonly history: ReadonlyArray<ConversationHistory.HistoryItem>
  /** What the user just said; null when the agent speaks first. */
  readonly user_text: string | null
  readonly channel: Channel
  /** The time the reply's tool calls are logged at (see `RuntimeTools.call`); when they finish if absent. */
  readonly tools_logged_at?: Date
}

/** A tool call the reply made, as a client sees it. */
export interface ToolCallSummary {
  readonly tool_uuid: string
  /** The tool's name (not the function name the model used). */
  readonly name: string
  readonly ok: boolean
  /** Why it did not succeed: the tool's error type, or why it was not run; null when it succeeded. */
  readonly error: string | null
}

/** How a reply ended the conversation: the agent called its end-call tool, or a transfer (voice only). */
export type ReplyEnd =
  { readonly reason: "end_call" } | { readonly reason: "transfer"; readonly destination_number: string }

/** The reply as a whole. */
export interface ReplyOutcome {
  readonly text: string
  readonly tool_calls: ReadonlyArray<ToolCallSummary>
  /** Non-null when the reply ends the conversation. */
  readonly end: ReplyEnd | null
  readonly usage: TokenUsage
}

/**
 * What happens while a reply is made, in order: text as it comes (`Delta`; the deltas concatenate to the
 * reply's text), each tool call once it ran (`ToolCalled`), the tokens of each model request once it
 * answered (`Usage`, also for requests whose reply later fails: they were spent).
 */
export type ReplyEvent =
  | { readonly _tag: "Delta"; readonly text: string }
  | { readonly _tag: "ToolCalled"; readonly call: ToolCallSummary }
  | { readonly _tag: "Usage"; readonly usage: TokenUsage }

/**
 * The conversation engine, one for every channel: it gives the agent's next message. The model is given
 * the agent version's system prompt (with the knowledge most relevant to the new message, from the
 * agent's knowledge documents), the history (trimmed to `ConversationLimits.historyChars`, oldest first)
 * and the new message, and offered the agent's tools as functions (`AgentFunctions`). Tool calls run
 * through `RuntimeTools` (the guarded outbound client, credentials, the run's log) and their results go back
 * to the model, at most `maxToolCallsPerTurn` a reply, after which the model must answer in words. An
 * `end_call` tool ends the conversation after the reply; a transfer is refused to the model in a chat. A
 * model request that fails before it gave anything is tried once more (after the provider's `Retry-After`
 * when it is at most 2 s).
 */
export class ConversationEngine extends Context.Tag("@voice-agent-platform/core/ConversationEngine")<
  ConversationEngine,
  {
    /** Makes the reply, telling `emit` what happens as it happens. */
    readonly reply: (
      input: ReplyInput,
      emit: (event: ReplyEvent) => Effect.Effect<void>
    ) => Effect.Effect<ReplyOutcome, LanguageModelError>
  }
>() {}

/** The longest a failed model request's `Retry-After` may be for the request to be tried again at once. */
export const retryWithinMillis = 2_000

/** The wait before trying again a request that failed without saying when to. */
const defaultRetryMillis = 250

/** The knowledge texts given with a message: the chunks in order, cut so that together they fit the bound. */
export const boundedKnowledge = (chunks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const kept: Array<string> = []
  let room = ConversationLimits.knowledgeChars
  for (const chunk of chunks) {
    if (room <= 0) break
    const text = CodePoints.cut(chunk.trim(), room)
    if (text === "") continue
    kept.push(text)
    room -= text.length
  }
  return kept
}

/** The system message: the agent's prompt, then the knowledge for this message when there is some. */
export const systemMessage = (prompt: string, knowledge: ReadonlyArray<string>): string =>
  knowledge.length === 0
    ? prompt
    : `${prompt}\n\n## Knowledge for this message\nAnswer from it when it answers the user; do not read it out unasked.\n\n${knowledge.join("\n\n---\n\n")}`

/** The model choices of the agent (`workflow_configurations.model`). */
const optionsOf = (version: RunAgentVersion): ModelOptions => {
  const choice = version.agent.workflow_configurations.model
  return {
    ...(choice?.model === undefined ? {} : { model: choice.model }),
    ...(choice?.temperature === undefined ? {} : { temperature: choice.temperature }),
    ...(choice?.max_tokens === undefined ? {} : { max_tokens: choice.max_tokens })
  }
}

/**
 * What the model is told a tool call gave: its outcome, and its response as JSON text cut to
 * `ConversationLimits.toolResultChars` (as a run's log keeps it, and as the next messages' history gives it).
 */
export const resultContent = (result: ToolResult): string => {
  const response = JSON.stringify(result.response ?? null)
  return JSON.stringify({
    ok: result.ok,
    status_code: result.status_code,
    response:
      response.length <= ConversationLimits.toolResultChars
        ? result.response
        : `${CodePoints.cut(response, ConversationLimits.toolResultChars)} (cut: the response was ${response.length} characters)`,
    message: result.message,
    error: result.error
  })
}

/** A function call's arguments as an object, or why they are not one. */
const parseArguments = (text: string): Either.Either<Record<string, unknown>, string> => {
  if (text.trim() === "") return Either.right({})
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? Either.right(parsed as Record<string, unknown>)
      : Either.left("the arguments are not a JSON object")
  } catch {
    return Either.left("the arguments are not valid JSON")
  }
}

/** What one function call came to: what the model is told, what the client sees, and any end. */
interface CallOutcome {
  readonly content: string
  readonly summary: ToolCallSummary | null
  readonly end: ReplyEnd | null
  /** What the agent says on ending (an end-call or transfer tool's message). */
  readonly message: string | null
}

export const make = Effect.gen(function* () {
  const model = yield* LanguageModel
  const runtimeTools = yield* RuntimeTools
  const knowledgeBase = yield* KnowledgeBase

  /** A model request, streamed into `onEvent`; tried once more when it failed before giving anything. */
  const request = (body: ModelRequest, onEvent: (event: ModelEvent) => Effect.Effect<void>) => {
    let received = false
    const attempt = model.stream(body).pipe(
      Stream.runForEach((event) => {
        received = true
        return onEvent(event)
      })
    )
    return attempt.pipe(
      Effect.catchIf(
        (error) =>
          !received &&
          (error._tag === "ModelUnavailable" ||
            (error._tag === "ModelRateLimited" &&
              (error.retry_after_ms === null || error.retry_after_ms <= retryWithinMillis))),
        (error) =>
          Effect.sleep(
            Duration.millis(
              error._tag === "ModelRateLimited" && error.retry_after_ms !== null
                ? error.retry_after_ms
                : defaultRetryMillis
            )
          ).pipe(Effect.zipRight(attempt))
      )
    )
  }

  const reply = (input: ReplyInput, emit: (event: ReplyEvent) => Effect.Effect<void>) =>
    Effect.gen(function* () {
      const { version } = input
      const run = version.run
      const functions = AgentFunctions.of(version.tools)
      const byName = new Map(functions.map((f) => [f.function.name, f]))
      const documents = version.definition.workflow_definition.knowledge_base_document_ids ?? []
      const hits =
        input.user_text === null || documents.length === 0
          ? []
          : yield* knowledgeBase.search(
              run.organization_id,
              input.user_text,
              ConversationLimits.knowledgeChunks,
              documents as ReadonlyArray<DocumentId>
            )
      const knowledge = boundedKnowledge(hits.map((hit) => hit.chunk.text))
      const messages: Array<ModelMessage> = [
        { role: "system", content: systemMessage(version.system_prompt, knowledge) },
        ...ConversationHistory.toMessages(
          ConversationHistory.trim(input.history, ConversationLimits.historyChars)
        ),
        ...(input.user_text === null ? [] : [{ role: "user" as const, content: input.user_text }])
      ]
      const guide = ConversationGuides.of({
        definition: version.definition,
        system_prompt: version.system_prompt,
        first_message: version.first_message,
        functions,
        knowledge,
        disposition_codes: version.agent.call_disposition_codes
      })
      const options = optionsOf(version)

      /** Runs one function call the model asked for. */
      const callFunction = (call: ToolCall): Effect.Effect<CallOutcome> =>
        Effect.gen(function* () {
          const found = byName.get(call.name)
          const refused = (error: string, summaryError: string | null) => ({
            content: JSON.stringify({ ok: false, error }),
            summary:
              found === undefined || summaryError === null
                ? null
                : { tool_uuid: found.tool.tool_uuid, name: found.tool.name, ok: false, error: summaryError },
            end: null,
            message: null
          })
          if (found === undefined) return refused(`there is no function named ${call.name}`, null)
          const args = parseArguments(call.arguments)
          if (Either.isLeft(args)) return refused(args.left, "invalid_arguments")
          if (found.tool.definition.type === "transfer" && input.channel === "chat") {
            return refused(
              "transfers are not available in a chat: tell the user how else to reach a person",
              "transfer_not_available_in_chat"
            )
          }
          const ran = yield* Effect.either(
            runtimeTools.call(run.workflow_run_id, found.tool.tool_uuid, args.right, input.tools_logged_at)
          )
          if (Either.isLeft(ran)) return refused(ran.left.message, ran.left._tag)
          const result = ran.right
          const summary = {
            tool_uuid: found.tool.tool_uuid,
            name: found.tool.name,
            ok: result.ok,
            error: result.error?.type ?? null
          }
          const response = result.response as {
            readonly action?: unknown
            readonly destination_number?: unknown
          }
          const end: ReplyEnd | null =
            !result.ok || typeof response !== "object" || response === null
              ? null
              : response.action === "end_call"
                ? { reason: "end_call" }
                : response.action === "transfer" && typeof response.destination_number === "string"
                  ? { reason: "transfer", destination_number: response.destination_number }
                  : null
          return {
            content: resultContent(result),
            summary,
            end,
            message: end === null ? null : result.message
          }
        })

      let text = ""
      let usage = noUsage
      let callsMade = 0
      const summaries: Array<ToolCallSummary> = []
      let end: ReplyEnd | null = null
      let endMessage: string | null = null
      /** Text said so far, and one more part: parts of a reply are joined by a space. */
      const say = (part: string) =>
        Effect.suspend(() => {
          if (part === "") return Effect.void
          const delta = text !== "" && !/\s$/.test(text) && !/^\s/.test(part) ? ` ${part}` : part
          text += delta
          return emit({ _tag: "Delta", text: delta })
        })

      while (end === null) {
        const mustAnswer = callsMade >= ConversationLimits.maxToolCallsPerTurn || functions.length === 0
        let answer = ModelReplies.empty
        // a request's text follows earlier text after a space
        let joining = text !== "" && !/\s$/.test(text)
        const body: ModelRequest = {
          ...options,
          messages,
          ...(functions.length === 0
            ? {}
            : {
                tools: functions.map((f) => f.function),
                tool_choice: mustAnswer ? ("none" as const) : ("auto" as const)
              }),
          guide
        }
        yield* request(body, (event) => {
          answer = ModelReplies.add(answer, event)
          if (event._tag !== "TextDelta" || event.text === "") return Effect.void
          const delta = joining && !/^\s/.test(event.text) ? ` ${event.text}` : event.text
          joining = false
          text += delta
          return emit({ _tag: "Delta", text: delta })
        }).pipe(
          // a reply cut after it began (its deadline, an error, the client gone) used tokens the provider
          // never counted for us: they are estimated, so that they are charged too
          Effect.onExit((exit) =>
            Exit.isSuccess(exit) ||
            (answer.text === "" && answer.tool_calls.length === 0) ||
            answer.usage.prompt_tokens + answer.usage.completion_tokens > 0
              ? Effect.void
              : emit({ _tag: "Usage", usage: UsageEstimate.estimate(body, answer) })
          )
        )
        const whole = ModelReplies.finish(answer)
        usage = addUsage(usage, whole.usage)
        yield* emit({ _tag: "Usage", usage: whole.usage })
        const calls = mustAnswer
          ? []
          : whole.tool_calls.slice(0, ConversationLimits.maxToolCallsPerTurn - callsMade)
        if (calls.length === 0) break
        messages.push({ role: "assistant", content: whole.text, tool_calls: calls })
        for (const call of calls) {
          callsMade += 1
          const outcome = yield* callFunction(call)
          messages.push({ role: "tool", tool_call_id: call.id, content: outcome.content })
          if (outcome.summary !== null) {
            summaries.push(outcome.summary)
            yield* emit({ _tag: "ToolCalled", call: outcome.summary })
          }
          if (outcome.end !== null && end === null) {
            end = outcome.end
            endMessage = outcome.message
          }
        }
      }
      // an ending tool's own message closes the reply, unless the model already said it
      if (endMessage !== null && !text.includes(endMessage.trim())) yield* say(endMessage.trim())
      return { text: text.trim(), tool_calls: summaries, end, usage }
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(ConversationLimits.replyTimeoutMillis),
        onTimeout: () => new ModelDeadline({ timeout_ms: ConversationLimits.replyTimeoutMillis })
      })
    )

  return ConversationEngine.of({ reply: OperationSpans.fn("ConversationEngine.reply")(reply) })
})

export const layer = Layer.effect(ConversationEngine, make)
