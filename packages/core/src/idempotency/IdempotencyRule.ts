import type { RunId } from "../runs/RunId.js"
import type {
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyTtl,
  StoredResponse
} from "./IdempotencyRecord.js"

/**
 * What a request with a key may do, given what is stored under the key:
 * - `New`: nothing stored; claim the key and run.
 * - `Expired`: what is stored is past its retention, or a claim whose lease lapsed; claim it afresh.
 * - `Mismatch`: the key was used for another request (422).
 * - `InFlight`: the first request is still running (409).
 * - `Replay`: the first request's final answer.
 */
export type IdempotencyDecision =
  | { readonly _tag: "New" }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Mismatch" }
  | { readonly _tag: "InFlight"; readonly leaseUntil: Date }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }

/**
 * Decides what a request with `fingerprint` may do at `now`. Another request beats in-flight: a key
 * reused for another body is a client error that waiting would not cure, so it is refused at once.
 */
export const decide = (
  record: IdempotencyRecord | undefined,
  fingerprint: string,
  now: Date
): IdempotencyDecision => {
  if (record === undefined) return { _tag: "New" }
  const t = now.getTime()
  if (record.expires_at.getTime() <= t) return { _tag: "Expired" }
  if (record.response === null && record.lease_until.getTime() <= t) return { _tag: "Expired" }
  // An erased record no longer knows what its request carried: every request under its key is told so.
  if (record.fingerprint === erasedFingerprint && record.response !== null) {
    return { _tag: "Replay", response: record.response }
  }
  if (record.fingerprint !== fingerprint) return { _tag: "Mismatch" }
  if (record.response === null) return { _tag: "InFlight", leaseUntil: record.lease_until }
  return { _tag: "Replay", response: record.response }
}

/** True when the decision lets the request claim the key and run. */
export const mayClaim = (
  decision: IdempotencyDecision
): decision is Extract<IdempotencyDecision, { readonly _tag: "New" | "Expired" }> =>
  decision._tag === "New" || decision._tag === "Expired"

/** The in-flight record a claim made at `now` writes. */
export const claimed = (claim: IdempotencyClaim, now: Date, ttl: IdempotencyTtl): IdempotencyRecord => ({
  ...claim,
  created_at: now,
  expires_at: new Date(now.getTime() + ttl.retentionSeconds * 1000),
  lease_until: new Date(now.getTime() + Math.min(ttl.leaseSeconds, ttl.retentionSeconds) * 1000),
  response: null,
  run_id: null
})

/**
 * The fingerprint an erased record keeps: none. A fingerprint is a hash of the request's body, and a
 * phone number is few enough digits to be found again from it, so it goes with the answer.
 */
export const erasedFingerprint = ""

/**
 * What a key whose answer named a since-deleted run answers from then on, until it expires: 404, like
 * every read of the run, and nothing of what the run held. The key is not freed (a retry must not place
 * the call again).
 */
export const erasedAnswer = (runId: RunId): StoredResponse => ({
  status: 404,
  body: {
    detail: `Run ${runId} was deleted; the answer kept for this Idempotency-Key was erased with it`
  }
})

/** The record as it stays once the run its answer named is deleted: key, dates and the erased answer only. */
export const erased = (record: IdempotencyRecord, runId: RunId): IdempotencyRecord => ({
  ...record,
  fingerprint: erasedFingerprint,
  response: erasedAnswer(runId),
  run_id: null
})

/** True when the record is the claim's own, still unanswered: only then may its holder complete or abandon it. */
export const heldBy = (record: IdempotencyRecord | undefined, claim: IdempotencyClaim): boolean =>
  record !== undefined && record.response === null && record.token === claim.token

/**
 * True for an answer that is kept and replayed: a success or a refusal that a retry would only repeat.
 * 409 (a conflict with the current state, e.g. outside calling hours), 429 (busy) and 5xx may change on
 * a retry, so they free the key instead. 1xx/3xx are never answered here and are not kept.
 */
export const isFinal = (status: number): boolean =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429)
