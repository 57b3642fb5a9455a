import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { Statement } from "@effect/sql"
import { AnalysisJobStore } from "@voice-agent-platform/core/analysis/AnalysisJobStore.js"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { UsageStore } from "@voice-agent-platform/core/usage/UsageStore.js"
import { Effect, Layer } from "effect"
import { claimStatement } from "../../src/analysis/PgAnalysisJobStore.js"
import { idleChatsStatement } from "../../src/runs/PgRunStore.js"
import * as PgStorage from "../../src/storage/PgStorage.js"
import { totalsStatement } from "../../src/usage/PgUsageStore.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the plans of the analysis reads on PostgreSQL")

/**
 * The plan of `statement`. A test table is small enough that a sequential scan is cheaper; with it priced
 * out, the plan shows whether the query can use its index at all.
 */
const planOf = (statement: Statement.Statement<unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql
      .withTransaction(
        Effect.zipRight(
          sql`SET LOCAL enable_seqscan = off`,
          sql<{ "QUERY PLAN": string }>`EXPLAIN ${statement}`
        )
      )
      .pipe(Effect.map((rows) => rows.map((row) => row["QUERY PLAN"]).join("\n")))
  )

/** Rows enough in each table that the plans are about something. */
const seed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const runs = yield* RunStore
  const usage = yield* UsageStore
  const jobs = yield* AnalysisJobStore
  const org = yield* Fixtures.organization()
  const { agent } = yield* Fixtures.agent(org.id)
  const stored = yield* runs.insertMany(
    Array.from({ length: 200 }, (_, i) =>
      Fixtures.newRun(org.id, agent.id, i % 2 === 0 ? { mode: "chat", status: "in_progress" } : {})
    ),
    Fixtures.epoch
  )
  for (const [i, run] of stored.entries())
    if (run.mode === "chat")
      yield* runs.update(org.id, run.workflow_run_id, {
        last_activity_at: new Date(Fixtures.epoch.getTime() + i)
      })
  yield* usage.recordMany(
    stored.flatMap((run, i) =>
      (["call", "analysis"] as const).map((kind) => ({
        organization_id: org.id,
        kind,
        run_id: run.workflow_run_id,
        agent_id: agent.id,
        mode: run.mode,
        duration_seconds: kind === "call" ? i : 0,
        cost: MinorUnits.make(i),
        prompt_tokens: i,
        completion_tokens: i,
        currency: "PLN" as const,
        recorded_at: new Date(Fixtures.epoch.getTime() + i * 60_000)
      }))
    )
  )
  yield* jobs.enqueue(
    stored.map((run) => ({
      organization_id: org.id,
      kind: "call_analysis" as const,
      run_id: run.workflow_run_id,
      agent_id: agent.id
    })),
    Fixtures.epoch
  )
  // index-only scans are priced by the visibility map, which VACUUM sets
  for (const table of ["runs", "usage_records", "analysis_jobs"]) yield* sql.unsafe(`VACUUM ANALYZE ${table}`)
  return { org, sql }
})

const plans = Effect.gen(function* () {
  const { org, sql } = yield* seed
  const later = new Date(Fixtures.epoch.getTime() + 86_400_000)
  return {
    idleChats: yield* planOf(idleChatsStatement(sql, later, 50)),
    totals: yield* planOf(totalsStatement(sql, org.id, { from: Fixtures.epoch, to: later })),
    claim: yield* planOf(claimStatement(sql, later, later, "lease", 10))
  }
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`the analysis reads' indexes (${name})`, () => {
    it.live(
      "idle chats come from runs_idle_chats, totals from usage_records_for_reports alone, claims from analysis_jobs_due",
      () =>
        Effect.gen(function* () {
          const { claim, idleChats, totals } = yield* plans
          expect(idleChats).toContain("runs_idle_chats")
          expect(totals).toContain("Index Only Scan using usage_records_for_reports")
          expect(claim).toContain("analysis_jobs_due")
          expect(claim).toContain("LockRows")
        }).pipe(
          Effect.provide(PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(database, layerSecretBox))))
        ),
      60_000
    )
  })
}
