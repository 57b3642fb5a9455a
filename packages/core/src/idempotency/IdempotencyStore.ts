import { Context, type Effect } from "effect"
import type { OrganizationId } from "../organizations/Organization.js"
import type { RunId } from "../runs/RunId.js"
import type { IdempotencyClaim, IdempotencyTtl, StoredResponse } from "./IdempotencyRecord.js"

/** What `begin` answers: the key is the caller's to run with, or what to answer instead. */
export type BeginOutcome =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Mismatch" }
  | { readonly _tag: "InFlight"; readonly leaseUntil: Date }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/**
 * Idempotency keys, per organization. `begin` decides with `IdempotencyRule.decide` and claims in one
 * atomic step, also across server processes sharing one database: of any number of simultaneous first
 * requests with one key exactly one is `Claimed`. Only the claim's holder (its `token`) may complete or
 * abandon it.
 */
export class IdempotencyStore extends Context.Tag("@voice-agent-platform/core/IdempotencyStore")<
  IdempotencyStore,
  {
    /** Claims the key for the request, or says why not; a record past its retention counts as absent. */
    readonly begin: (claim: IdempotencyClaim, now: Date, ttl: IdempotencyTtl) => Effect.Effect<BeginOutcome>
    /**
     * Stores the final answer under the claim, with the run it names (if any); false when the claim was
     * lost (its lease lapsed and was taken).
     */
    readonly complete: (
      claim: IdempotencyClaim,
      response: StoredResponse,
      runId?: RunId | null
    ) => Effect.Effect<boolean>
    /** Frees the key after an answer that is not kept (409, 429, 5xx, interruption); false when not held. */
    readonly abandon: (claim: IdempotencyClaim) => Effect.Effect<boolean>
    /**
     * Erases the answers naming the run (`IdempotencyRule.erased`): run it in the transaction that deletes
     * the run. Answers how many records it erased.
     */
    readonly eraseRun: (organizationId: OrganizationId, runId: RunId) => Effect.Effect<number>
    /**
     * Deletes at most `limit` records past their retention at `now`, of every organization; answers how
     * many. Rows another transaction holds are skipped, for a later pass.
     */
    readonly purgeExpired: (now: Date, limit: number) => Effect.Effect<number>
  }
>() {}
