import { Context, Effect, FiberRef } from "effect"

/**
 * Runs several store operations as one unit: all of them take effect, or none does.
 *
 * Services wrap multi-step writes in it (claim a number and debit the balance; decide a suggestion and
 * append it to the prompt). The SQL adapter maps it to a database transaction; the in-memory adapter
 * serialises transactions and restores its tables when the effect fails. Every adapter's `run` marks the
 * fiber as inside a transaction (`markedInTransaction`), so work that would otherwise be handed to a transaction of
 * its own elsewhere (calls' ends written together) stays in the caller's.
 */
export class Transactions extends Context.Tag("@voice-agent-platform/core/Transactions")<
  Transactions,
  {
    readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}

/** Whether this fiber runs inside a transaction (`Transactions.run` sets it, through `markedInTransaction`). */
export const inTransaction: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(false)

/** Runs `effect` marked as inside a transaction: every adapter's `run` wraps its effect in it. */
export const markedInTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.locally(effect, inTransaction, true)
