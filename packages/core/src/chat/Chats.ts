import { Clock, Context, Effect, Exit, Layer, Option } from "effect"
import type { AgentNotFound } from "../agents/AgentErrors.js"
import type { AgentId, AgentRef } from "../agents/AgentIds.js"
import { Agents } from "../agents/Agents.js"
import { CallEvents } from "../calls/CallEvents.js"
import type { CallEvent } from "../calls/CallEvents.js"
import { CallFragmentStore } from "../calls/CallFragmentStore.js"
import * as RuntimeTools from "../calls/RuntimeTools.js"
import * as IntegrationProvider from "../tools/IntegrationProvider.js"
import * as ToolExecutor from "../tools/ToolExecutor.js"
import * as AgentFunctions from "../conversation/AgentFunctions.js"
import type { ReplyOutcome, ToolCallSummary } from "../conversation/ConversationEngine.js"
import * as ConversationEngine from "../conversation/ConversationEngine.js"
import * as ConversationHistory from "../conversation/ConversationHistory.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import type { TokenUsage } from "../language-model/LanguageModel.js"
import { addUsage, noUsage } from "../language-model/LanguageModel.js"
import type { LanguageModelError } from "../language-model/LanguageModelErrors.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { Run, RunStatus } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import { ToolStore } from "../tools/ToolStore.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import * as Transcripts from "../transcripts/Transcripts.js"
import { ConversationEnded, NotAChat, TextRequired, type TurnBusy, TurnLimitReached } from "./ChatErrors.js"
import type { ChatMessage } from "./ChatMessages.js"
import * as ChatMessages from "./ChatMessages.js"
import { ChatEnds, refuseEnded, talkSeconds } from "./ChatEnds.js"
import { ChatTurns } from "./ChatTurns.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** What a message to a chat answers. */
export interface ChatReply {
  readonly run: Run
  readonly reply: { readonly role: "assistant"; readonly text: string }
  readonly tool_calls: ReadonlyArray<ToolCallSummary>
  readonly ended: boolean
  /** `end_call` when the agent ended the chat with this reply; null while it goes on. */
  readonly end_reason: "end_call" | null
}

/** What happens while a message is answered, in order: text deltas, tool calls, then the whole reply. */
export type ChatEvent =
  | { readonly _tag: "Delta"; readonly text: string }
  | { readonly _tag: "ToolCalled"; readonly call: ToolCallSummary }

/** A chat's conversation so far. */
export interface ChatTranscript {
  readonly run: Run
  readonly messages: ReadonlyArray<ChatMessage>
}

/** Why a message was not answered (nothing of it was kept). */
export type ChatSendError =
  | AgentNotFound
  | RunNotFound
  | NotAChat
  | ConversationEnded
  | TextRequired
  | TurnLimitReached
  | TurnBusy
  | LanguageModelError

/**
 * Chats with agents (`mode: chat` runs). A message is answered by the `ConversationEngine`; what was said
 * is kept as the run's transcript fragments through `CallEvents` (so transcripts, webhooks, usage and
 * deletion behave as for calls), and only once the reply is complete: a message the model could not
 * answer leaves nothing behind and may be sent again. Messages to one chat take turns (`ChatTurns`). The
 * first message moves the run to `in_progress` (`call.started`); the agent's `end_call`, `end`, or
 * `CHAT_IDLE_SECONDS` without a message end it `completed` (`call.ended`; a chat ended before it started
 * ends `canceled`), and its analysis follows.
 */
export class Chats extends Context.Tag("@voice-agent-platform/core/Chats")<
  Chats,
  {
    /**
     * Answers a message (`text`), or, without text on a chat that has not started, has the agent open it
     * (its first message, or the model's opening when it has none). `emit` is told what happens as it happens.
     */
    readonly send: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId,
      text: string | undefined,
      emit: (event: ChatEvent) => Effect.Effect<void>
    ) => Effect.Effect<ChatReply, ChatSendError>
    /** The conversation so far (after the chat ended, as its transcript file keeps it). */
    readonly messages: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<ChatTranscript, AgentNotFound | RunNotFound | NotAChat>
    /** Ends the chat: `completed`, or `canceled` when it never started. */
    readonly end: (
      organizationId: OrganizationId,
      agent: AgentRef | string,
      runId: RunId
    ) => Effect.Effect<Run, AgentNotFound | RunNotFound | NotAChat | ConversationEnded | TurnBusy>
  }
>() {}

/** How a reply ends the chat, when it does: its final status, and what was said before the reply. */
interface ReplyEnding {
  readonly status: Extract<RunStatus, "completed">
  readonly kept: ReadonlyArray<TranscriptFragment>
}

export const make = Effect.gen(function* () {
  const agents = yield* Agents
  const runs = yield* RunStore
  const fragments = yield* CallFragmentStore
  const events = yield* CallEvents
  const transactions = yield* Transactions
  const runtimeTools = yield* RuntimeTools.RuntimeTools
  const engine = yield* ConversationEngine.ConversationEngine
  const turns = yield* ChatTurns
  const transcripts = yield* Transcripts.Transcripts
  const tools = yield* ToolStore
  const ends = yield* ChatEnds

  /** The run if it is the agent's chat: another agent's run is not found, a run of another mode is not a chat. */
  const asChat = (
    agentId: AgentId,
    runId: RunId,
    run: Option.Option<Run>
  ): Effect.Effect<Run, RunNotFound | NotAChat> =>
    Option.isNone(run) || run.value.workflow_id !== agentId
      ? Effect.fail(new RunNotFound({ workflow_run_id: runId }))
      : run.value.mode !== "chat"
        ? Effect.fail(new NotAChat({ workflow_run_id: runId, mode: run.value.mode }))
        : Effect.succeed(run.value)

  /** The agent's chat run, read. */
  const chatOf = (organizationId: OrganizationId, agentId: AgentId, runId: RunId) =>
    Effect.flatMap(runs.find(organizationId, runId), (run) => asChat(agentId, runId, run))

  /** The same, the agent named as a client names it. */
  const findChat = (organizationId: OrganizationId, agent: AgentRef | string, runId: RunId) =>
    Effect.flatMap(agents.resolve(organizationId, agent), (resolved) =>
      chatOf(organizationId, resolved.id, runId)
    )

  /** An event of the run, in the caller's transaction; a run that ended meanwhile is a defect here (turns are held). */
  const report = (run: Run, event: CallEvent) =>
    events.report(run.organization_id, run.workflow_run_id, event).pipe(Effect.orDie)

  /** `keep`'s whole path, in one transaction. */
  const keepInTransaction = (
    run: Run,
    said: ReadonlyArray<TranscriptFragment>,
    usage: TokenUsage,
    end: ReplyEnding | null,
    now: number
  ) =>
    events.inTurn(
      transactions.run(
        Effect.gen(function* () {
          const reported: Array<Parameters<typeof events.reportAll>[2][number]> = said.map((fragment) => ({
            type: "fragment",
            ...fragment
          }))
          if (run.status === "initialized") reported.unshift({ type: "answered" })
          if (reported.length > 0) {
            // the turn is held: a run that ended meanwhile is a defect here
            yield* events.reportAll(run.organization_id, run.workflow_run_id, reported).pipe(Effect.orDie)
          }
          const kept = Option.getOrElse(
            yield* runs.addModelUsage(run.organization_id, run.workflow_run_id, usage, new Date(now)),
            () => run
          )
          if (end === null) return kept
          const ended = yield* report(run, {
            type: "ended",
            status: end.status,
            duration_seconds: talkSeconds([...end.kept, ...said], now)
          })
          return ended.run
        })
      )
    )

  /**
   * Keeps a complete reply (holding the events' turn). The usual one, a reply in a chat under way that
   * does not end it: the user's message, the reply, the tokens and the last activity in one step of the
   * store (`CallFragmentStore.appendWhileLive`). Otherwise, or when that finds the run final, in one
   * transaction: the start when the chat had not started, the opening, the message and the reply (one
   * event report holding the run once), the tokens with the last activity (one write), and the end when
   * the reply ends the chat. Answers the run as it then is.
   */
  const keep: typeof keepInTransaction = (run, said, usage, end, now) =>
    run.status === "initialized" || end !== null
      ? keepInTransaction(run, said, usage, end, now)
      : events.inTurn(
          Effect.flatMap(
            fragments.appendWhileLive(run.organization_id, run.workflow_run_id, said, {
              usage,
              lastActivityAt: new Date(now)
            }),
            Option.match({
              onSome: Effect.succeed,
              // gone final meanwhile: the whole path says how (a defect here, as turns are held)
              onNone: () => keepInTransaction(run, said, usage, end, now)
            })
          )
        )

  const send = (
    organizationId: OrganizationId,
    agent: AgentRef | string,
    runId: RunId,
    text: string | undefined,
    emit: (event: ChatEvent) => Effect.Effect<void>
  ) =>
    Effect.gen(function* () {
      const agentId = (yield* agents.resolve(organizationId, agent)).id
      // the run is read as the turn is taken (one statement), and checked then: a refused message gives
      // the turn straight back
      return yield* turns.hold(organizationId, runId, (held) =>
        Effect.gen(function* () {
          const run = yield* asChat(agentId, runId, Option.some(held))
          yield* refuseEnded(run)
          const started = run.status !== "initialized"
          if (text === undefined && started) return yield* new TextRequired({ workflow_run_id: runId })
          const kept = started ? yield* fragments.list(organizationId, runId) : []
          if (
            text !== undefined &&
            kept.filter((f) => f.role === "user").length >= ConversationLimits.maxUserTurns
          ) {
            return yield* new TurnLimitReached({
              workflow_run_id: runId,
              limit: ConversationLimits.maxUserTurns
            })
          }
          const version = yield* runtimeTools.agentOfRun(run)
          // a message is later than everything said before it, even within one millisecond of the clock:
          // what was said, and the calls placed by it, keep their order (ToolCallPlacement)
          const lastSaid = kept.reduce(
            (at, f) => Math.max(at, f.timestamp.getTime()),
            Number.NEGATIVE_INFINITY
          )
          const receivedAt = new Date(Math.max(yield* Clock.currentTimeMillis, lastSaid + 1))
          const opening = started ? "" : version.first_message.trim()
          const openingSaid: ReadonlyArray<TranscriptFragment> =
            opening === "" ? [] : [{ role: "assistant", text: opening, timestamp: receivedAt }]
          let usage = noUsage
          const relay = (event: Parameters<Parameters<typeof engine.reply>[1]>[0]) => {
            if (event._tag === "Usage") {
              usage = addUsage(usage, event.usage)
              return Effect.void
            }
            return emit(event)
          }
          const answer: Effect.Effect<ReplyOutcome, LanguageModelError> =
            text === undefined && opening !== ""
              ? Effect.as(emit({ _tag: "Delta", text: opening }), {
                  text: opening,
                  tool_calls: [],
                  end: null,
                  usage: noUsage
                })
              : engine.reply(
                  {
                    version,
                    history: started
                      ? ConversationHistory.fromRun(kept, run.logs, functionNamesOf(version.tools))
                      : openingSaid.map((f) => ({ _tag: "Spoken" as const, ...f })),
                    user_text: text ?? null,
                    channel: "chat",
                    tools_logged_at: receivedAt
                  },
                  relay
                )
          const outcome = yield* answer.pipe(
            // tokens of requests that answered were spent even when the reply failed, died or was stopped
            // later: they are counted (and the chat's activity with them, so that the idle sweep ends and
            // bills a chat whose only message failed)
            Effect.onExit((exit) =>
              Exit.isSuccess(exit) || (usage.prompt_tokens === 0 && usage.completion_tokens === 0)
                ? Effect.void
                : runs.addModelUsage(organizationId, runId, usage, receivedAt).pipe(
                    Effect.asVoid,
                    Effect.catchAllCause((cause) =>
                      Effect.logError("a failed reply's tokens were not counted", cause)
                    )
                  )
            )
          )
          const repliedAt = Math.max(yield* Clock.currentTimeMillis, receivedAt.getTime())
          const said: Array<TranscriptFragment> = []
          if (text === undefined) {
            if (outcome.text !== "")
              said.push({ role: "assistant", text: outcome.text, timestamp: receivedAt })
          } else {
            said.push(...openingSaid, { role: "user", text, timestamp: receivedAt })
            if (outcome.text !== "")
              said.push({ role: "assistant", text: outcome.text, timestamp: new Date(repliedAt) })
          }
          const ended = outcome.end !== null
          const after = yield* keep(run, said, usage, ended ? { status: "completed", kept } : null, repliedAt)
          return {
            run: after,
            reply: { role: "assistant" as const, text: outcome.text },
            tool_calls: outcome.tool_calls,
            ended,
            end_reason: ended ? ("end_call" as const) : null
          }
        })
      )
    })

  /** The function name of each tool of the version, by uuid (as the engine offers them). */
  const functionNamesOf = (versionTools: Parameters<typeof AgentFunctions.of>[0]) => {
    const names = new Map(AgentFunctions.of(versionTools).map((f) => [f.tool.tool_uuid, f.function.name]))
    return (toolUuid: string) => names.get(toolUuid)
  }

  const messages = (organizationId: OrganizationId, agent: AgentRef | string, runId: RunId) =>
    Effect.gen(function* () {
      const run = yield* findChat(organizationId, agent, runId)
      const said = isFinal(run.status)
        ? yield* transcripts.read(organizationId, runId).pipe(
            Effect.map((transcript) => transcript.fragments),
            // never started, or its file was removed by retention: nothing said is kept
            Effect.catchTag("RunFileNotAvailable", () => Effect.succeed([]))
          )
        : run.status === "initialized"
          ? []
          : yield* fragments.list(organizationId, runId)
      const uuids = [
        ...new Set(
          run.logs.flatMap((entry) => (entry.tool_call === undefined ? [] : [entry.tool_call.tool_uuid]))
        )
      ]
      const names = new Map<string, string>()
      for (const uuid of uuids) {
        const tool = yield* tools.find(organizationId, uuid)
        if (Option.isSome(tool)) names.set(uuid, tool.value.name)
      }
      return { run, messages: ChatMessages.list(said, run.logs, (uuid) => names.get(uuid) ?? null) }
    })

  const end = (organizationId: OrganizationId, agent: AgentRef | string, runId: RunId) =>
    Effect.gen(function* () {
      const run = yield* findChat(organizationId, agent, runId)
      yield* refuseEnded(run)
      const now = yield* Clock.currentTimeMillis
      const ended = yield* ends.end(run, { why: null, until: () => now })
      // only an idle sweep's end is conditional: this one always ends it
      return Option.getOrElse(ended, () => run)
    })

  return Chats.of({
    send: OperationSpans.fn("Chats.send")(send, SpanAttributes.organizationAgentRun),
    messages: OperationSpans.fn("Chats.messages")(messages, SpanAttributes.organizationAgentRun),
    end: OperationSpans.fn("Chats.end")(end, SpanAttributes.organizationAgentRun)
  })
})

/** Chats over the engine's services, a `ConversationEngine` and `RuntimeTools` from the environment. */
export const layer = Layer.effect(Chats, make)

/**
 * Chats whose agents' tools run through a `ToolExecutor` built here (no integration provider: integration
 * tools answer that none is installed), over the engine's services, a `LanguageModel` and the host's one
 * guarded outbound client (`OutboundHttp`).
 */
export const layerWithTools = layer.pipe(
  Layer.provide(
    Layer.provideMerge(
      ConversationEngine.layer,
      RuntimeTools.layer.pipe(Layer.provide(ToolExecutor.layer), Layer.provide(IntegrationProvider.layerNone))
    )
  )
)
