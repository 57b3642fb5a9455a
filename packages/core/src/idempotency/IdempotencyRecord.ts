import { Schema } from "effect"
import { OrganizationId } from "../organizations/Organization.js"
import { RunId } from "../runs/RunId.js"
import { IdempotencyKey } from "./IdempotencyKey.js"

/** A final answer as it went out, to be sent again for a repeated request. */
export const StoredResponse = Schema.Struct({
  status: Schema.Int,
  /** The JSON body, exactly as first sent. */
  body: Schema.Unknown
})
export type StoredResponse = typeof StoredResponse.Type

/**
 * One key of one organization: claimed by a request (`response` null while it runs) and, once that
 * request has a final answer, holding the answer until `expires_at`.
 */
export const IdempotencyRecord = Schema.Struct({
  organization_id: OrganizationId,
  key: IdempotencyKey,
  /** `RequestFingerprint.fingerprint` of the first request: a repeat must match it. */
  fingerprint: Schema.String,
  /** The claim's own token: only its holder may complete or abandon it. */
  token: Schema.String,
  created_at: Schema.DateFromSelf,
  /** The key is forgotten after this: created_at plus the retention (24 h). */
  expires_at: Schema.DateFromSelf,
  /** While in flight, the claim lapses after this (created_at plus the lease), so a crash never locks a key. */
  lease_until: Schema.DateFromSelf,
  response: Schema.NullOr(StoredResponse),
  /**
   * The run the kept answer names (a placed call), if any: deleting that run erases the answer with it
   * (`IdempotencyRule.erasedAnswer`), so no personal data outlives the run here.
   */
  run_id: Schema.NullOr(RunId)
})
export type IdempotencyRecord = typeof IdempotencyRecord.Type

/** How long keys are kept and how long a running request holds its key. */
export interface IdempotencyTtl {
  readonly retentionSeconds: number
  readonly leaseSeconds: number
}

/**
 * Keys are remembered for 24 h (Stripe's figure; the IETF draft asks for at least that). A request holds
 * its key for at most 60 s: every idempotent request here finishes in well under a second, so a key
 * still unanswered after a minute belongs to a request that died.
 */
export const defaultTtl: IdempotencyTtl = { retentionSeconds: 24 * 3600, leaseSeconds: 60 }

/** What a request presents to claim a key: who, which key, what it asks, and its own token. */
export interface IdempotencyClaim {
  readonly organization_id: OrganizationId
  readonly key: IdempotencyKey
  readonly fingerprint: string
  readonly token: string
}
