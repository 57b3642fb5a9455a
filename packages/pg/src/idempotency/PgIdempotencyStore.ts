import { SqlClient } from "@effect/sql"
import type {
  IdempotencyClaim,
  IdempotencyTtl,
  StoredResponse
} from "@voice-agent-platform/core/idempotency/IdempotencyRecord.js"
import { IdempotencyRecord } from "@voice-agent-platform/core/idempotency/IdempotencyRecord.js"
import * as IdempotencyRule from "@voice-agent-platform/core/idempotency/IdempotencyRule.js"
import type { BeginOutcome } from "@voice-agent-platform/core/idempotency/IdempotencyStore.js"
import { IdempotencyStore } from "@voice-agent-platform/core/idempotency/IdempotencyStore.js"
import { Effect, Layer, Option } from "effect"
import * as Rows from "../storage/Rows.js"

/** The columns of a record, with its answer as JSON text for the `json` column. */
const columns = (record: IdempotencyRecord) => ({
  ...record,
  response: record.response === null ? null : JSON.stringify(record.response)
})

/**
 * Idempotency keys in PostgreSQL, one row per organization and key.
 *
 * `begin` is exact across processes: in one transaction it inserts the claim if the key is free
 * (`INSERT ... ON CONFLICT DO NOTHING`, which waits for a concurrent insert of the same key to settle),
 * otherwise it locks the stored row (`SELECT ... FOR UPDATE`), decides with `IdempotencyRule.decide` and
 * writes the claim only when the rule allows it. Simultaneous first requests therefore meet at the row:
 * one inserts it, the others wait for its commit and find it in flight. Expired rows are deleted by the
 * housekeeping pass (`purgeExpired`), not by requests.
 */
export const layer: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const keyIs = (claim: IdempotencyClaim) =>
      sql`organization_id = ${claim.organization_id} AND key = ${claim.key}`

    /**
     * One attempt at deciding. None when the row that made the insert a no-op was gone by the time it was
     * locked (its holder abandoned it, or it was purged, in between): the attempt is then made again.
     */
    const attempt = (
      claim: IdempotencyClaim,
      now: Date,
      ttl: IdempotencyTtl
    ): Effect.Effect<Option.Option<BeginOutcome>> =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const fresh = IdempotencyRule.claimed(claim, now, ttl)
            const inserted = yield* Rows.first(IdempotencyRecord)(sql`
            INSERT INTO idempotency_keys ${sql.insert(columns(fresh))}
            ON CONFLICT (organization_id, key) DO NOTHING RETURNING *`)
            if (Option.isSome(inserted)) return Option.some<BeginOutcome>({ _tag: "Claimed" })
            const stored = yield* Rows.first(IdempotencyRecord)(
              sql`SELECT * FROM idempotency_keys WHERE ${keyIs(claim)} FOR UPDATE`
            )
            if (Option.isNone(stored)) return Option.none()
            const decision = IdempotencyRule.decide(stored.value, claim.fingerprint, now)
            if (!IdempotencyRule.mayClaim(decision)) return Option.some<BeginOutcome>(decision)
            yield* Rows.execute(sql`
            UPDATE idempotency_keys SET ${sql.update(columns(fresh), ["organization_id", "key"])}
            WHERE ${keyIs(claim)}`)
            return Option.some<BeginOutcome>({ _tag: "Claimed" })
          })
        )
        .pipe(Effect.orDie)

    const begin = (claim: IdempotencyClaim, now: Date, ttl: IdempotencyTtl): Effect.Effect<BeginOutcome> =>
      Effect.flatMap(
        attempt(claim, now, ttl),
        Option.match({ onNone: () => begin(claim, now, ttl), onSome: Effect.succeed })
      )

    return {
      begin,
      complete: (claim, response: StoredResponse, runId) =>
        sql`
          UPDATE idempotency_keys SET response = ${JSON.stringify(response)}::json, run_id = ${runId ?? null}
          WHERE ${keyIs(claim)} AND token = ${claim.token} AND response IS NULL
          RETURNING key`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      abandon: (claim) =>
        sql`
          DELETE FROM idempotency_keys
          WHERE ${keyIs(claim)} AND token = ${claim.token} AND response IS NULL
          RETURNING key`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      // One statement per run (index idempotency_keys_by_run): the answer, the run's id and the
      // fingerprint go; the key, its dates and the erased answer stay until the key expires.
      eraseRun: (organizationId, runId) =>
        sql`
          UPDATE idempotency_keys
          SET fingerprint = ${IdempotencyRule.erasedFingerprint},
            response = ${JSON.stringify(IdempotencyRule.erasedAnswer(runId))}::json, run_id = NULL
          WHERE organization_id = ${organizationId} AND run_id = ${runId}
          RETURNING key`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        ),
      // Rows another transaction holds are skipped (never waited for), so a purge can neither block a
      // request nor deadlock with one; they go on a later pass.
      purgeExpired: (now, limit) =>
        sql`
          DELETE FROM idempotency_keys
          WHERE (organization_id, key) IN (
            SELECT organization_id, key FROM idempotency_keys WHERE expires_at <= ${now}
            ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          )
          RETURNING key`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length)
        )
    }
  })
)
