import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import { newRunDefaults } from "@voice-agent-platform/core/runs/Run.js"
import type { RunId } from "@voice-agent-platform/core/runs/RunId.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { UsageStore } from "@voice-agent-platform/core/usage/UsageStore.js"
import type { AgentId } from "@voice-agent-platform/core/agents/AgentIds.js"
import type { Layer } from "effect"
import { Effect, Exit, Option } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgRunStore from "../../src/runs/PgRunStore.js"
import * as PgUsageStore from "../../src/usage/PgUsageStore.js"
import { migrateBelow } from "./StoppedAt.js"
import { versionsFrom } from "./VersionsFrom.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the version 10 migration test on PostgreSQL")

/**
 * A database that stopped at version 9 holding an ended run, its ledger line and a webhook delivery; then
 * version 10: no table it widens is rewritten (their files stay), the run reads with the new fields'
 * defaults, the line is a `call` line without tokens that still keeps its run's one `call` line, and the
 * new columns' checks hold for every write after it.
 */
const widensWithoutRewriting = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateBelow(10)
  const [org] = yield* sql<{ id: number }>`
    INSERT INTO organizations (name, outbound_channels, balance, created_at)
    VALUES ('Before version 10', 10, 0, now()) RETURNING id`
  const organizationId = Number(org!.id) as OrganizationId
  const [run] = yield* sql<{ workflow_run_id: number }>`
    INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context, currency,
      logs, sms, integration_deliveries, files, duration_seconds, cost, created_at, ended_at)
    VALUES (7, ${organizationId}, 'phone', 'completed', '{}', '{}', 'PLN', '[]', '[]', '[]',
      '{"recording": null, "transcript": null}', 61, 122, now(), now())
    RETURNING workflow_run_id`
  const runId = Number(run!.workflow_run_id) as RunId
  yield* sql`
    INSERT INTO usage_records (organization_id, run_id, agent_id, mode, duration_seconds, cost, currency, recorded_at)
    VALUES (${organizationId}, ${runId}, 7, 'phone', 61, 122, 'PLN', '2026-03-01T12:00:00Z')`
  yield* sql`
    INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, enabled, created_at)
    VALUES ('whk_AAAAAAAAAAAAAAAAAAAA', ${organizationId}, 'https://example.com/hook', '["call.ended"]',
      'v1:sealed', true, now())`
  const delivery = (id: string, eventType: string) => sql`
    INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_type, run_id, payload, attempts,
      status, next_attempt_at, created_at)
    VALUES (${id}, ${organizationId}, 'whk_AAAAAAAAAAAAAAAAAAAA', ${eventType}, ${runId}, '{}', 0, 'pending',
      now(), now())`
  yield* delivery("msg_AAAAAAAAAAAAAAAAAAAAAAAA", "call.ended")
  const files = sql<{ runs: string; usage_records: string; webhook_deliveries: string }>`
    SELECT pg_relation_filenode('runs')::text AS runs,
      pg_relation_filenode('usage_records')::text AS usage_records,
      pg_relation_filenode('webhook_deliveries')::text AS webhook_deliveries`
  const [before] = yield* files

  expect((yield* Migrations.run).map(([, name]) => name)).toEqual(versionsFrom(10))
  expect((yield* files)[0]).toEqual(before)

  yield* Effect.gen(function* () {
    const runs = yield* RunStore
    const usage = yield* UsageStore
    const stored = Option.getOrThrow(yield* runs.find(organizationId, runId))
    expect(stored).toMatchObject({ ...newRunDefaults, duration_seconds: 61, cost: 122 })
    const [line] = (yield* usage.list(organizationId, {}, { page: 1, limit: 10 })).items
    expect(line).toMatchObject({ kind: "call", run_id: runId, prompt_tokens: 0, completion_tokens: 0 })
    const again = {
      organization_id: organizationId,
      kind: "call" as const,
      run_id: runId,
      agent_id: 7 as AgentId,
      mode: "phone",
      duration_seconds: 1,
      cost: MinorUnits.make(1),
      prompt_tokens: 0,
      completion_tokens: 0,
      currency: "PLN" as const,
      recorded_at: new Date()
    }
    expect((yield* usage.record(again)).id).toBe(line!.id)
    expect((yield* usage.record({ ...again, kind: "analysis" })).id).not.toBe(line!.id)
  }).pipe(Effect.provide(PgRunStore.layer), Effect.provide(PgUsageStore.layer))

  // the checks added without a scan hold for every write
  yield* delivery("msg_BBBBBBBBBBBBBBBBBBBBBBBB", "call.analyzed")
  const refused = (statement: Effect.Effect<unknown, unknown>) =>
    Effect.map(Effect.exit(sql.withTransaction(statement)), Exit.isFailure)
  expect(yield* refused(delivery("msg_CCCCCCCCCCCCCCCCCCCCCCCC", "call.summarised"))).toBe(true)
  for (const set of [
    "analysis_status = 'done'",
    "model_prompt_tokens = -1",
    "model_completion_tokens = -1",
    "model_cost = 1000000000000001"
  ]) {
    expect(yield* refused(sql.unsafe(`UPDATE runs SET ${set} WHERE workflow_run_id = ${runId}`))).toBe(true)
  }
  expect(
    yield* refused(sql`
      INSERT INTO usage_records (organization_id, kind, run_id, agent_id, mode, duration_seconds, cost, currency,
        recorded_at)
      VALUES (${organizationId}, 'analysis', NULL, 7, 'phone', 0, 1, 'PLN', now())`)
  ).toBe(true)
  expect(
    yield* refused(sql`
      INSERT INTO usage_records (organization_id, kind, run_id, agent_id, mode, duration_seconds, cost, currency,
        recorded_at)
      VALUES (${organizationId}, 'refund', ${runId}, 7, 'phone', 0, 1, 'PLN', now())`)
  ).toBe(true)
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`version 10 over runs, lines and deliveries stored before it (${name})`, () => {
    it.live("rewrites no table, reads old rows with the defaults, and checks every later write", () =>
      widensWithoutRewriting.pipe(Effect.provide(database))
    )
  })
}
