import { Effect, Layer } from "effect"
import type { IdempotencyKey } from "../idempotency/IdempotencyKey.js"
import type { IdempotencyRecord, StoredResponse } from "../idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "../idempotency/IdempotencyRule.js"
import { IdempotencyStore } from "../idempotency/IdempotencyStore.js"
import type { OrganizationId } from "../organizations/Organization.js"
import { MemoryDatabase } from "./MemoryDatabase.js"

/** Idempotency keys in memory; each claim is decided and written in one atomic step. */
export const layer: Layer.Layer<IdempotencyStore, never, MemoryDatabase> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const records = db.table<string, IdempotencyRecord>("idempotency_keys")
    // JSON keeps the pair unambiguous whatever characters the key holds
    const rowKey = (organizationId: OrganizationId, key: IdempotencyKey) =>
      JSON.stringify([organizationId, key])

    return {
      begin: (claim, now, ttl) =>
        db.atomically(() => {
          const id = rowKey(claim.organization_id, claim.key)
          const decision = IdempotencyRule.decide(records.get(id), claim.fingerprint, now)
          if (IdempotencyRule.mayClaim(decision)) {
            records.set(id, IdempotencyRule.claimed(claim, now, ttl))
            return { _tag: "Claimed" } as const
          }
          return decision
        }),
      complete: (claim, response: StoredResponse, runId) =>
        db.atomically(() => {
          const id = rowKey(claim.organization_id, claim.key)
          const record = records.get(id)
          if (record === undefined || !IdempotencyRule.heldBy(record, claim)) return false
          records.set(id, { ...record, response, run_id: runId ?? null })
          return true
        }),
      abandon: (claim) =>
        db.atomically(() => {
          const id = rowKey(claim.organization_id, claim.key)
          return IdempotencyRule.heldBy(records.get(id), claim) ? records.delete(id) : false
        }),
      eraseRun: (organizationId, runId) =>
        db.atomically(() => {
          let erased = 0
          for (const record of records.values()) {
            if (record.organization_id !== organizationId || record.run_id !== runId) continue
            records.set(rowKey(record.organization_id, record.key), IdempotencyRule.erased(record, runId))
            erased++
          }
          return erased
        }),
      purgeExpired: (now, limit) =>
        db.atomically(() => {
          let purged = 0
          for (const record of records.values()) {
            if (purged >= limit) break
            if (record.expires_at.getTime() > now.getTime()) continue
            records.delete(rowKey(record.organization_id, record.key))
            purged++
          }
          return purged
        })
    }
  })
)
