import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import type { Layer } from "effect"
import { Effect, Option } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgRunStore from "../../src/runs/PgRunStore.js"
import { migrateBelow } from "./StoppedAt.js"
import { versionsFrom } from "./VersionsFrom.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the version 13 migration test on PostgreSQL")

/**
 * A database that stopped at version 12 holding a live phone call; then version 13: the run reads as
 * before, has no dialed call (no media socket is given for it), and once its call is recorded, its
 * socket is given once, for that call only.
 */
const bindsSocketsToDialedCalls = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateBelow(13)
  const [org] = yield* sql<{ id: number }>`
    INSERT INTO organizations (name, outbound_channels, balance, created_at)
    VALUES ('Before version 13', 10, 0, now()) RETURNING id`
  const [row] = yield* sql<{ workflow_run_id: number }>`
    INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context,
      currency, logs, sms, integration_deliveries, files, created_at)
    VALUES (7, ${Number(org!.id)}, 'phone', 'in_progress', '{}', '{}', 'PLN', '[]', '[]', '[]',
      '{"recording": null, "transcript": null}', now())
    RETURNING workflow_run_id`
  const runId = Number(row!.workflow_run_id) as never

  expect((yield* Migrations.run).map(([, name]) => name)).toEqual(versionsFrom(13))

  yield* Effect.gen(function* () {
    const runs = yield* RunStore
    const dialed = `CA${"a".repeat(32)}`
    expect(Option.getOrThrow(yield* runs.findAnyOrganization(runId)).status).toBe("in_progress")
    expect(yield* runs.claimMedia(runId, dialed, new Date())).toBe(false)
    expect(yield* runs.carrierCallOf(runId)).toEqual(Option.none())
    yield* runs.recordCarrierCall(runId, dialed)
    // the first call kept wins: a later one (another callback's) changes nothing
    yield* runs.recordCarrierCall(runId, `CA${"b".repeat(32)}`)
    expect(yield* runs.carrierCallOf(runId)).toEqual(Option.some(dialed))
    expect(yield* runs.claimMedia(runId, `CA${"b".repeat(32)}`, new Date())).toBe(false)
    expect(yield* runs.claimMedia(runId, dialed, new Date())).toBe(true)
    expect(yield* runs.claimMedia(runId, dialed, new Date())).toBe(false)
  }).pipe(Effect.provide(PgRunStore.layer))
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`version 13 over a live call stored before it (${name})`, () => {
    it.live("binds the call's media socket to its dialed call, once", () =>
      bindsSocketsToDialedCalls.pipe(Effect.provide(database))
    )
  })
}
