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
 * on a lock of their own (first come, first answered); across processes, the turn is held in storage
 * (`RunStore.takeTurn`, until `leaseMillis` from taking it, so a server that dies mid-answer frees it then),
 * and a message that finds it held elsewhere looks again every `pollMillis` until it gets it, or gives up
 * after `waitMillis` (`TurnBusy`).
 */
export class ChatTurns extends Context.Tag("@voice-agent-platform/core/ChatTurns")<
  ChatTurns,
  {
    /**
     * Runs `use` holding the run's turn, given the run as it is once the turn is held (whatever changed it
     * while this message waited); a run that is gone meanwhile is `RunNotFound`.
     */
    readonly hold: <A, E, R>(
      organizationId: OrganizationId,
      runId: RunId,
      use: (run: Run) => Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | TurnBusy | RunNotFound, R>
  }
>() {}

/** How long a held turn lasts in storage: the longest reply, and a margin. */
export const leaseMillis = ConversationLimits.replyTimeoutMillis + 30_000

/** The longest a message waits for a turn another server holds. */
export const waitMillis = ConversationLimits.replyTimeoutMillis

/** How often a message waiting for another server's turn looks again. */
export const pollMillis = 50

export const make = Effect.gen(function* () {
  const runs = yield* RunStore
  const local = new Map<string, { readonly lock: Effect.Semaphore; users: number }>()

  /** The process's lock of a run, shared while anyone uses it and forgotten after. */
  const withLocal = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) =>
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
      (entry) => entry.lock.withPermits(1)(effect),
      (entry) =>
        Effect.sync(() => {
          entry.users -= 1
          if (entry.users === 0) local.delete(key)
        })
    )

  const hold = <A, E, R>(
    organizationId: OrganizationId,
    runId: RunId,
    use: (run: Run) => Effect.Effect<A, E, R>
  ) => {
    const holder = globalThis.crypto.randomUUID()
    const take = Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      while (true) {
        const now = yield* Clock.currentTimeMillis
        const taken = yield* runs.takeTurn(
          organizationId,
          runId,
          holder,
          new Date(now + leaseMillis),
          new Date(now)
        )
        if (Option.isSome(taken)) return taken.value
        if (Option.isNone(yield* runs.find(organizationId, runId))) {
          return yield* new RunNotFound({ workflow_run_id: runId })
        }
        if (now - started >= waitMillis) {
          return yield* new TurnBusy({ workflow_run_id: runId, waited_ms: Math.round(now - started) })
        }
        yield* Effect.sleep(Duration.millis(pollMillis))
      }
    })
    return withLocal(
      `${organizationId}:${runId}`,
      Effect.acquireUseRelease(take, use, () => runs.releaseTurn(organizationId, runId, holder))
    )
  }

  return ChatTurns.of({ hold })
})

export const layer = Layer.effect(ChatTurns, make)
