import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ApiKeyStore } from "@voice-agent-platform/core/organizations/ApiKeyStore.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import type { Layer } from "effect"
import { Effect, Exit } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgOrganizationStore from "../../src/organizations/PgOrganizationStore.js"
import { migrateBelow } from "./StoppedAt.js"
import { versionsFrom } from "./VersionsFrom.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the version 11 migration test on PostgreSQL")

/**
 * A database that stopped at version 10 holding an organization with two keys (one revoked); then version
 * 11: the keys keep their ids and are named after their prefixes, have never been used, list newest first,
 * a new key's id is drawn at random rather than counted, and a name outside 1..100 characters is refused.
 */
const namesKeysAndDrawsIds = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateBelow(11)
  const [org] = yield* sql<{ id: number }>`
    INSERT INTO organizations (name, outbound_channels, balance, created_at)
    VALUES ('Before version 11', 10, 0, now()) RETURNING id`
  const organizationId = Number(org!.id) as OrganizationId
  const key = (prefix: string, createdAt: string, revokedAt: string | null) =>
    Effect.map(
      sql<{ id: number }>`
        INSERT INTO api_keys (organization_id, key_hash, key_prefix, created_at, revoked_at)
        VALUES (${organizationId}, ${`hash-${prefix}-${Math.random()}`}, ${prefix}, ${createdAt}, ${revokedAt})
        RETURNING id`,
      ([row]) => Number(row!.id)
    )
  const older = yield* key("vap_Old1", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")
  const newer = yield* key("vap_New2", "2026-01-03T00:00:00Z", null)

  expect((yield* Migrations.run).map(([, name]) => name)).toEqual(versionsFrom(11))

  yield* Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    const listed = yield* keys.list(organizationId)
    expect(listed.map((k) => [k.id, k.name, k.last_used_at])).toEqual([
      [newer, "Key vap_New2", null],
      [older, "Key vap_Old1", null]
    ])
    const made = yield* keys.insert(
      {
        organization_id: organizationId,
        key_hash: `hash-${Math.random()}`,
        key_prefix: "vap_abcd",
        name: "New"
      },
      new Date()
    )
    // counted from the identity, it would have been the next number
    expect(made.id).not.toBe(Math.max(older, newer) + 1)
  }).pipe(Effect.provide(PgOrganizationStore.layerApiKeys))

  const refused = (name: string) =>
    Effect.map(
      Effect.exit(
        sql.withTransaction(sql`
          INSERT INTO api_keys (organization_id, key_hash, key_prefix, name, created_at)
          VALUES (${organizationId}, ${`hash-${Math.random()}`}, 'vap_abcd', ${name}, now())`)
      ),
      Exit.isFailure
    )
  expect(yield* refused("")).toBe(true)
  expect(yield* refused("x".repeat(101))).toBe(true)
  expect(yield* refused("x".repeat(100))).toBe(false)
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`version 11 over keys stored before it (${name})`, () => {
    it.live("names the keys after their prefixes, keeps their ids and draws new ids at random", () =>
      namesKeysAndDrawsIds.pipe(Effect.provide(database))
    )
  })
}
