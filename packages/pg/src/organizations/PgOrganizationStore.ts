import { SqlClient } from "@effect/sql"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import { ApiKey } from "@voice-agent-platform/core/organizations/ApiKey.js"
import {
  ApiKeyStore,
  type NewApiKey,
  Revocation
} from "@voice-agent-platform/core/organizations/ApiKeyStore.js"
import { Organization } from "@voice-agent-platform/core/organizations/Organization.js"
import type { Organization as OrganizationRecord } from "@voice-agent-platform/core/organizations/Organization.js"
import { InsufficientBalance } from "@voice-agent-platform/core/organizations/OrganizationErrors.js"
import { OrganizationStore } from "@voice-agent-platform/core/organizations/OrganizationStore.js"
import { Effect, Layer, Option, Schema } from "effect"
import * as Paging from "../storage/Paging.js"
import * as QuotaGuard from "../storage/QuotaGuard.js"
import * as Rows from "../storage/Rows.js"

/** Amounts moved in or out of a balance are positive: a negative debit would be a credit in disguise. */
const positive = (amount: number) =>
  Number.isSafeInteger(amount) && amount > 0
    ? Effect.void
    : Effect.dieMessage(`balance changes take a positive whole amount of minor units, got ${amount}`)

/** Organizations in PostgreSQL. Balance changes are single conditional UPDATEs, exact across processes. */
export const layerOrganizations: Layer.Layer<OrganizationStore, never, SqlClient.SqlClient> = Layer.effect(
  OrganizationStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(Organization)
    return {
      insert: (organization, now) =>
        Rows.single(Organization)(sql`
          INSERT INTO organizations ${sql.insert({ ...organization, created_at: now })} RETURNING *`),
      find: (id) => one(sql`SELECT * FROM organizations WHERE id = ${id}`),
      count: Rows.single(Paging.Count)(sql`SELECT count(*)::int8 AS total FROM organizations`).pipe(
        Effect.map((row) => row.total)
      ),
      update: (id, patch) =>
        Object.keys(patch).length === 0
          ? one(sql`SELECT * FROM organizations WHERE id = ${id}`)
          : one(sql`UPDATE organizations SET ${sql.update(patch)} WHERE id = ${id} RETURNING *`),
      credit: (id, amount) =>
        positive(amount).pipe(
          Effect.zipRight(
            one(sql`UPDATE organizations SET balance = balance + ${amount} WHERE id = ${id} RETURNING *`)
          )
        ),
      debit: (id, amount) =>
        positive(amount).pipe(
          Effect.zipRight(
            one(sql`
              UPDATE organizations SET balance = balance - ${amount}
              WHERE id = ${id} AND balance >= ${amount} RETURNING *`)
          ),
          Effect.flatMap((debited): Effect.Effect<Option.Option<OrganizationRecord>, InsufficientBalance> =>
            Option.isSome(debited)
              ? Effect.succeed(debited)
              : // Not debited: either there is no such organization or its balance is short.
                Effect.flatMap(one(sql`SELECT * FROM organizations WHERE id = ${id}`), (current) =>
                  Option.match(current, {
                    onNone: () => Effect.succeedNone,
                    onSome: (organization) =>
                      Effect.fail(
                        new InsufficientBalance({
                          balance: organization.balance,
                          required: amount,
                          top_up: MinorUnits.make(amount - organization.balance)
                        })
                      )
                  })
                )
          )
        )
    }
  })
)

/** A key joined with its organization, whose columns carry an `o_` prefix. */
const KeyWithOrganization = Schema.Struct({
  ...ApiKey.fields,
  o_name: Organization.fields.name,
  o_outbound_channels: Organization.fields.outbound_channels,
  o_recording_retention_days: Organization.fields.recording_retention_days,
  o_balance: Organization.fields.balance,
  o_created_at: Organization.fields.created_at
})

/**
 * API keys in PostgreSQL, found by their unique hash. Creating a key within the quota and revoking one
 * unless it is the last active key both lock the organization's row first (`QuotaGuard`'s lock): of two
 * such changes of one organization's keys, in any server processes, the second sees the first's.
 */
export const layerApiKeys: Layer.Layer<ApiKeyStore, never, SqlClient.SqlClient> = Layer.effect(
  ApiKeyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(ApiKey)
    const insert = (key: NewApiKey, now: Date) =>
      Rows.single(ApiKey)(sql`
        INSERT INTO api_keys ${sql.insert({ ...key, created_at: now, last_used_at: null, revoked_at: null })}
        RETURNING *`)
    const activeCount = (organizationId: number) =>
      Rows.single(Paging.Count)(sql`
        SELECT count(*)::int8 AS total FROM api_keys
        WHERE organization_id = ${organizationId} AND revoked_at IS NULL`)
    const apiKeysList = Paging.list(
      sql,
      { table: "api_keys", orderBy: "created_at DESC, id DESC" },
      Rows.all(ApiKey)
    )

    return {
      insert,
      insertWithin: (key, now, limit) =>
        QuotaGuard.insertWithin(
          sql,
          "api_keys",
          key.organization_id,
          limit,
          insert(key, now),
          sql`revoked_at IS NULL`
        ),
      findActiveByHash: (keyHash) =>
        Rows.first(KeyWithOrganization)(
          sql`
          SELECT k.*, o.name AS o_name, o.outbound_channels AS o_outbound_channels,
            o.recording_retention_days AS o_recording_retention_days, o.balance AS o_balance,
            o.created_at AS o_created_at
          FROM api_keys k JOIN organizations o ON o.id = k.organization_id
          WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`
        ).pipe(
          Effect.map(
            Option.map((row) => ({
              apiKey: {
                id: row.id,
                organization_id: row.organization_id,
                key_hash: row.key_hash,
                key_prefix: row.key_prefix,
                name: row.name,
                created_at: row.created_at,
                last_used_at: row.last_used_at,
                revoked_at: row.revoked_at
              },
              organization: {
                id: row.organization_id,
                name: row.o_name,
                outbound_channels: row.o_outbound_channels,
                recording_retention_days: row.o_recording_retention_days,
                balance: row.o_balance,
                created_at: row.o_created_at
              }
            }))
          )
        ),
      list: (organizationId) =>
        Rows.all(ApiKey)(sql`
          SELECT * FROM api_keys WHERE organization_id = ${organizationId}
          ORDER BY created_at DESC, id DESC`),
      listPage: (organizationId, page) => apiKeysList(sql`organization_id = ${organizationId}`, page),
      revoke: (id, now) =>
        one(sql`
          UPDATE api_keys SET revoked_at = coalesce(revoked_at, ${now}) WHERE id = ${id} RETURNING *`),
      revokeUnlessLast: (organizationId, id, now) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* QuotaGuard.lockOrganization(sql, organizationId)
              const key = yield* one(
                sql`SELECT * FROM api_keys WHERE organization_id = ${organizationId} AND id = ${id}`
              )
              if (Option.isNone(key)) return Revocation.NotFound()
              if (key.value.revoked_at !== null) return Revocation.AlreadyRevoked({ key: key.value })
              if ((yield* activeCount(organizationId)).total <= 1) {
                return Revocation.LastActiveKey({ key: key.value })
              }
              const revoked = yield* Rows.single(ApiKey)(sql`
                UPDATE api_keys SET revoked_at = ${now} WHERE id = ${id} RETURNING *`)
              return Revocation.Revoked({ key: revoked })
            })
          )
          .pipe(Effect.orDie),
      // No trigger hears this column (schema version 11): recording a use invalidates no lookup.
      recordUse: (id, at, since) =>
        Rows.execute(sql`
          UPDATE api_keys SET last_used_at = ${at}
          WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${since})`)
    }
  })
)
