import { Context, type Effect } from "effect"

/**
 * Runs several store operations as one unit: all of them take effect, or none does.
 *
 * Services wrap multi-step writes in it (claim a number and debit the balance; decide a suggestion and
 * append it to the prompt). The SQL adapter maps it to a database transaction; the in-memory adapter
 * serialises transactions and restores its tables when the effect fails.
 */
export class Transactions extends Context.Tag("@voice-agent-platform/core/Transactions")<
  Transactions,
  {
    readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}
