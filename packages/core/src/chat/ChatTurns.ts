import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import type { Run } from "../runs/Run.js"
import { RunNotFound } from "../runs/RunErrors.js"
import type { OrganizationId } from "../organizations/Organization.js"
import type { RunId } from "../runs/RunId.js"
import { RunStore } from "../runs/RunStore.js"
import * as ConversationLimits from "../conversation/ConversationLimits.js"
import { TurnBusy } from "./ChatErrors.js"

/**
 * One answer at a time per conversation: messages to one chat are answered one after the other, never
 * interleaved in its history, whichever servers receive them. Within a process, a chat's messages queue
 * on a lock of their own (first come, first answered; at most `maxWaiting` at once, more are `TurnBusy`);
 * across processes, the turn is held in storage (`RunStore.takeTurn`, until `leaseMillis` from taking it,
 * so a server that dies mid-answer frees it then), and a message that finds it held elsewhere looks again
 * (every `pollMillis`, doubling up to `longestPollMillis`) until it gets it, or gives up after `waitMillis`
 * (`TurnBusy`). Waiting can always be stopped (a request's deadline, a server shutting down).
 */
export class ChatTurns extends Context.Tag("@voice-agent-platform/core/ChatTurns")<
  ChatTurns,
  {
    /**
     * Runs `use` holding the run's turn, given the run as it is once the turn is held (whatever changed it
     * while this message waited); a run that is gone meanwhile is `RunNotFound`. With `wait: false` a turn
     * held by anyone is `TurnBusy` at once (the idle sweep passes over a chat being answered).
     */
    readonly hold: <A, E, R>(
      organizationId: OrganizationId,
      runId: RunId,
      use: (run: Run) => Effect.Effect<A, E, R>,
      options?: { readonly wait?: boolean }
    ) => Effect.Effect<A, E | TurnBusy | RunNotFound, R>
  }
>() {}

/** How long a held turn lasts in storage: the longest reply, and a margin. */
export const leaseMillis = ConversationLimits.replyTimeoutMillis + 30_000

/**
 * The longest a message waits for a turn another server holds: less than the request deadline's default
 * (30 s), so that the wait ends in its own answer (409 `turn_busy`) rather than the deadline's 503.
 */
export const waitMillis = 20_000

/** How often a message waiting for another server's turn first looks again; the wait doubles up to `longestPollMillis`. */
export const pollMillis = 50
export const longestPollMillis = 800

/** The most messages of one chat waiting in one process: a flood of messages to one chat is refused. */
export const maxWaiting = 8

export const make = Effect.gen(function* () {
  const runs = yield* RunStore
  const local = new Map<string, { readonly lock: Effect.Semaphore; users: number }>()

  /**
   * The process's lock of a run (shared while anyone uses it and forgotten after), waited for until
   * `deadline` (epoch milliseconds; a deadline passed already: taken only if free), then `effect`.
   */
  const withLocal = <A, E, R>(key: string, runId: RunId, deadline: number, effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        let entry = local.get(key)
        if (entry === undefined) {
          entry = { lock: Effect.unsafeMakeSemaphore(1), users: 0 }
          local.set(key, entry)
        }
        entry.users += 1
        return entry
      }),
      (entry): Effect.Effect<A, E | TurnBusy, R> =>
        Effect.gen(function* () {
          const waited = (now: number) =>
            new TurnBusy({
              workflow_run_id: runId,
              waited_ms: Math.max(0, Math.round(now - (deadline - waitMillis)))
            })
          if (entry.users > maxWaiting) return yield* Effect.fail(waited(yield* Clock.currentTimeMillis))
          const now = yield* Clock.currentTimeMillis
          const lock = entry.lock.take(1).pipe(
            Effect.timeoutFail({
              duration: Duration.millis(Math.max(0, deadline - now)),
              onTimeout: () => waited(deadline)
            })
          )
          return yield* Effect.acquireUseRelease(
            lock,
            () => effect,
            () => entry.lock.release(1)
          )
        }),
      (entry) =>
        Effect.sync(() => {
          entry.users -= 1
          if (entry.users === 0) local.delete(key)
        })
    )

  const hold = <A, E, R>(
    organizationId: OrganizationId,
    runId: RunId,
    use: (run: Run) => Effect.Effect<A, E, R>,
    options: { readonly wait?: boolean } = {}
  ) =>
    Effect.gen(function* () {
      const holder = globalThis.crypto.randomUUID()
      const started = yield* Clock.currentTimeMillis
      // the whole wait (for this process's lock, then for another server's turn) ends at one deadline
      const deadline = options.wait === false ? started : started + waitMillis
      /** One try: the turn taken (one statement, not to be cut in two), used and given back; none when held. */
      const attempt = Effect.acquireUseRelease(
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          runs.takeTurn(organizationId, runId, holder, new Date(now + leaseMillis), new Date(now))
        ),
        (taken) =>
          Option.match(taken, {
            onNone: () => Effect.succeed(Option.none<A>()),
            onSome: (run) => Effect.map(use(run), Option.some)
          }),
        (taken) => (Option.isSome(taken) ? runs.releaseTurn(organizationId, runId, holder) : Effect.void)
      )
      const take = Effect.gen(function* () {
        let poll = pollMillis
        while (true) {
          const done = yield* attempt
          if (Option.isSome(done)) return done.value
          if (Option.isNone(yield* runs.find(organizationId, runId))) {
            return yield* new RunNotFound({ workflow_run_id: runId })
          }
          const now = yield* Clock.currentTimeMillis
          if (now >= deadline) {
            return yield* new TurnBusy({ workflow_run_id: runId, waited_ms: Math.round(now - started) })
          }
          yield* Effect.sleep(Duration.millis(Math.min(poll, deadline - now)))
          poll = Math.min(poll * 2, longestPollMillis)
        }
      })
      return yield* withLocal(`${organizationId}:${runId}`, runId, deadline, take)
    })

  return ChatTurns.of({ hold })
})

export const layer = Layer.effect(ChatTurns, make)
