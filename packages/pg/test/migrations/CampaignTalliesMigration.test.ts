import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import * as CampaignTally from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import type { Layer } from "effect"
import { Effect, Option } from "effect"
import * as Migrations from "../../src/migrations/Migrations.js"
import * as PgCampaignStore from "../../src/campaigns/PgCampaignStore.js"
import { migrateBelow } from "./StoppedAt.js"
import { versionsFrom } from "./VersionsFrom.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the version 8 migration test on PostgreSQL")

/** The totals as the campaign's row kept them before version 8. */
const totalsColumns = `pending_count, in_progress_count, completed_count, failed_count, skipped_count,
  attempts_count, duration_seconds_total, cost_total`

/**
 * A database that stopped at version 7 holding two campaigns with contacts in every status and their
 * runs, then version 8: every campaign's totals read the same as before (through the store too), no
 * tally is invented, and the totals go on from there (a call's end's tally, then a claim's fold).
 */
const keepsTotals = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateBelow(8)
  const [org] = yield* sql<{ id: number }>`
    INSERT INTO organizations (name, outbound_channels, balance, created_at)
    VALUES ('Before version 8', 10, 0, now()) RETURNING id`
  const organizationId = Number(org!.id)
  const campaignIds: Array<number> = []
  for (const [name, status, contacts] of [
    ["Running", "running", ["pending", "pending", "in_progress", "completed", "failed", "skipped"]],
    ["Done", "completed", ["completed", "completed", "failed"]]
  ] as const) {
    const [campaign] = yield* sql<{ id: number }>`
      INSERT INTO campaigns (organization_id, agent_id, name, status, max_attempts, retry_delay_seconds,
        created_at)
      VALUES (${organizationId}, 7, ${name}, ${status}, 2, 60, now()) RETURNING id`
    const campaignId = Number(campaign!.id)
    campaignIds.push(campaignId)
    let i = 0
    for (const contactStatus of contacts) {
      i++
      const attempts = contactStatus === "pending" || contactStatus === "skipped" ? 0 : 1
      let runId: number | null = null
      if (attempts > 0) {
        const [run] = yield* sql<{ workflow_run_id: number }>`
          INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context,
            currency, logs, sms, integration_deliveries, files, created_at, campaign_id, duration_seconds, cost)
          VALUES (7, ${organizationId}, 'phone', ${contactStatus === "in_progress" ? "in_progress" : "completed"},
            '{}', '{}', 'PLN', '[]', '[]', '[]', '{"recording": null, "transcript": null}', now(),
            ${campaignId}, 30, 120)
          RETURNING workflow_run_id`
        runId = Number(run!.workflow_run_id)
      }
      yield* sql`
        INSERT INTO campaign_contacts (campaign_id, organization_id, phone_number, initial_context, status,
          attempts, last_run_id, created_at)
        VALUES (${campaignId}, ${organizationId}, ${`+4850010${campaignIds.length}00${i}`}, '{}',
          ${contactStatus}, ${attempts}, ${runId}, now())`
    }
    // the counts version 6 keeps, with the talk time and cost the ends added
    yield* sql`
      UPDATE campaigns c SET
        pending_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = 'pending'),
        in_progress_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = 'in_progress'),
        completed_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = 'completed'),
        failed_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = 'failed'),
        skipped_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = 'skipped'),
        attempts_count = (SELECT sum(attempts) FROM campaign_contacts k WHERE k.campaign_id = c.id),
        duration_seconds_total = (SELECT sum(duration_seconds) FROM runs r WHERE r.campaign_id = c.id),
        cost_total = (SELECT sum(cost) FROM runs r WHERE r.campaign_id = c.id)
      WHERE c.id = ${campaignId}`
  }
  const totals = sql<Record<string, number>>`
    SELECT id, ${sql.literal(totalsColumns)} FROM campaigns WHERE organization_id = ${organizationId} ORDER BY id`
  const before = yield* totals

  expect((yield* Migrations.run).map(([, name]) => name)).toEqual(versionsFrom(8))

  expect(yield* totals).toEqual(before)
  expect(yield* sql`SELECT * FROM campaign_tallies`).toEqual([])
  yield* Effect.gen(function* () {
    const store = yield* CampaignStore
    const read = (id: number) =>
      Effect.map(store.find(organizationId as never, id as never), (found) => Option.getOrThrow(found).totals)
    for (const id of campaignIds) {
      const row = before.find((r) => Number(r.id) === id)!
      expect(yield* read(id)).toEqual({
        counts: {
          pending: row.pending_count,
          in_progress: row.in_progress_count,
          completed: row.completed_count,
          failed: row.failed_count,
          skipped: row.skipped_count
        },
        attempts: row.attempts_count,
        duration_seconds: row.duration_seconds_total,
        cost: row.cost_total
      })
    }
    // the running campaign's call in progress ends: its tally adds to the migrated counts, and a claim's
    // fold leaves the same totals, now all in the row
    const running = campaignIds[0]!
    const ended = CampaignTally.attemptEnded(CampaignTally.move("in_progress", "completed"), 45, 180)
    const expected = CampaignTally.combine(yield* read(running), ended)
    const [inProgress] = yield* sql<{ last_run_id: number }>`
      SELECT last_run_id FROM campaign_contacts WHERE campaign_id = ${running} AND status = 'in_progress'`
    yield* sql.withTransaction(
      Effect.flatMap(
        store.findAttemptsForEnd([
          {
            organization_id: organizationId as never,
            workflow_run_id: Number(inProgress!.last_run_id) as never
          }
        ]),
        (found) => {
          expect(found).toHaveLength(1)
          const { campaign, contact } = found[0]!
          return store.endAttempts([
            {
              organization_id: campaign.organization_id,
              campaign_id: campaign.id,
              contact_id: contact.id,
              move: { status: "completed", outcome: null, next_attempt_at: null },
              delta: ended
            }
          ])
        }
      )
    )
    expect(yield* read(running)).toEqual(expected)
    yield* sql.withTransaction(store.findForClaim(organizationId as never, running as never))
    expect(yield* read(running)).toEqual(expected)
    expect(yield* sql`SELECT * FROM campaign_tallies`).toEqual([])
  }).pipe(Effect.provide(PgCampaignStore.layer))
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`version 8 over campaigns stored before it (${name})`, () => {
    it.live("keeps every campaign's totals, and they go on from there", () =>
      keepsTotals.pipe(Effect.provide(database))
    )
  })
}
