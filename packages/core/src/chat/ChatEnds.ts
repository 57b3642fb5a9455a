import { Cause, Clock, Context, Effect, Layer, Option } from "effect"
import type { CallEvent } from "../calls/CallEvents.js"
import { CallEvents } from "../calls/CallEvents.js"
import { CallFragmentStore } from "../calls/CallFragmentStore.js"
import * as SpanAttributes from "../observability/SpanAttributes.js"
import type { Run } from "../runs/Run.js"
import { isFinal } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import { Transactions } from "../storage/Transactions.js"
import type { TranscriptFragment } from "../transcripts/Transcript.js"
import { ConversationEnded, type TurnBusy } from "./ChatErrors.js"
import { ChatSettings } from "./ChatSettings.js"
import { ChatTurns } from "./ChatTurns.js"
import * as OperationSpans from "../observability/OperationSpans.js"

/** The most idle chats one sweep ends. */
export const idleBatch = 500

/** The log line of a chat that ended for want of messages. */
export const idleMessage = (seconds: number) => `The chat ended after ${seconds} s without a message`

/** A chat's talk time: from its first message to `until`, in seconds (none said: 0). */
export const talkSeconds = (said: ReadonlyArray<TranscriptFragment>, until: number): number => {
  const first = said.reduce((at, f) => Math.min(at, f.timestamp.getTime()), Number.POSITIVE_INFINITY)
  return Number.isFinite(first) ? Math.max(0, (until - first) / 1000) : 0
}

/** A chat that ended before anything was said ends `canceled`; any other `completed`. */
export const endStatusOf = (run: Run) =>
  (run.status === "initialized" ? "canceled" : "completed") as "canceled" | "completed"

/** A run's ended chat is refused: it takes nothing more. */
export const refuseEnded = (run: Run) =>
  isFinal(run.status)
    ? Effect.fail(new ConversationEnded({ workflow_run_id: run.workflow_run_id, status: run.status }))
    : Effect.void

/**
 * How chats end, whoever ends them (the user's `end`, the idle sweep): holding the chat's turn (a reply
 * being made finishes first), through `CallEvents` (`call.ended`, the transcript file, the ledger, the
 * analysis), with the talk time from the first message to the last activity (an idle wait is not talk).
 */
export class ChatEnds extends Context.Tag("@voice-agent-platform/core/ChatEnds")<
  ChatEnds,
  {
    /**
     * Ends the chat `completed` (`canceled` when it never started) with `why` logged first, its talk time
     * up to `until` (given what was said), if it is still `due` once its turn is held: answers the ended
     * run, or none when it was no longer due.
     */
    readonly end: (
      run: Run,
      options: {
        readonly why: CallEvent | null
        readonly until: (said: ReadonlyArray<TranscriptFragment>) => number
        readonly due?: (current: Run) => boolean
        /** Whether to wait for a reply being made (default); without, a chat being answered is `TurnBusy`. */
        readonly wait?: boolean
      }
    ) => Effect.Effect<Option.Option<Run>, RunNotFound | ConversationEnded | TurnBusy>
    /** Ends chats idle for `CHAT_IDLE_SECONDS` (at most `idleBatch`); answers those it ended. */
    readonly endIdle: Effect.Effect<ReadonlyArray<RunId>>
  }
>() {}

export const make = Effect.gen(function* () {
  const runs = yield* RunStore
  const fragments = yield* CallFragmentStore
  const events = yield* CallEvents
  const transactions = yield* Transactions
  const turns = yield* ChatTurns
  // configuration is read when the layer is built
  const { idleSeconds } = yield* ChatSettings

  /**
   * Ends a chat that has not ended, holding its turn (a reply being made finishes first), if it is still
   * `due` once the turn is held (answers none when it is not).
   */
  const end: ChatEnds["Type"]["end"] = (run, { due = () => true, until, wait = true, why }) =>
    turns.hold(
      run.organization_id,
      run.workflow_run_id,
      (current) =>
        Effect.gen(function* () {
          yield* refuseEnded(current)
          if (!due(current)) return Option.none<Run>()
          const kept =
            current.status === "initialized"
              ? []
              : yield* fragments.list(run.organization_id, run.workflow_run_id)
          return yield* events.inTurn(
            transactions.run(
              Effect.gen(function* () {
                const report = (event: CallEvent) =>
                  events.report(current.organization_id, current.workflow_run_id, event).pipe(Effect.orDie)
                if (why !== null) yield* report(why)
                const outcome = yield* report({
                  type: "ended",
                  status: endStatusOf(current),
                  duration_seconds: talkSeconds(kept, until(kept))
                })
                return Option.some(outcome.run)
              })
            )
          )
        }),
      { wait }
    )

  const endIdle = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const cutoff = now - idleSeconds * 1000
    const idle = yield* runs.idleChats(new Date(cutoff), idleBatch)
    const ended: Array<RunId> = []
    for (const run of idle) {
      const lastActive = run.last_activity_at?.getTime() ?? now
      // talk time ends with the last message: the idle wait is not billed as talk
      const done = yield* end(run, {
        why: { type: "log", level: "info", message: idleMessage(idleSeconds) },
        until: () => lastActive,
        // a message answered meanwhile makes the chat active again
        due: (current) => current.last_activity_at !== null && current.last_activity_at.getTime() < cutoff,
        // a chat being answered is not idle: passed over, never waited for (the sweep waits for no one)
        wait: false
      }).pipe(
        Effect.map(Option.isSome),
        // an end arrived meanwhile, the run went, or it could not be ended now: the next sweep looks again
        Effect.catchAllCause((cause) =>
          Cause.isFailure(cause) && Option.isSome(Cause.failureOption(cause))
            ? Effect.succeed(false)
            : Effect.as(
                Effect.logError(`chat ${run.workflow_run_id} could not be ended when idle`, cause),
                false
              )
        )
      )
      if (done) ended.push(run.workflow_run_id)
    }
    return ended
  })

  return ChatEnds.of({
    end: OperationSpans.fn("ChatEnds.end")(end, SpanAttributes.ofRun),
    endIdle: Effect.withSpan(endIdle, "ChatEnds.endIdle")
  })
})

export const layer = Layer.effect(ChatEnds, make)
