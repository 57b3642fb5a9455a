import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { CallFragmentStore } from "@voice-agent-platform/core/calls/CallFragmentStore.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import type { Layer } from "effect"
import { Effect, Option } from "effect"
import * as PgCallFragmentStore from "../../src/calls/PgCallFragmentStore.js"
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
if (!reachable) warnUnreachable("the version 9 migration test on PostgreSQL")

/**
 * A database that stopped at version 8 holding live calls, one with transcript fragments, one without,
 * and one whose id another organization's fragments use; then version 9: only the run whose own
 * organization kept fragments is marked (its end still reads them), and appends go on marking: this
 * version's, and a version 8 server's during a rolling upgrade (a plain INSERT, which marks nothing itself).
 */
const marksRunsWithFragments = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateBelow(9)
  const organization = (name: string) =>
    Effect.map(
      sql<{ id: number }>`
        INSERT INTO organizations (name, outbound_channels, balance, created_at)
        VALUES (${name}, 10, 0, now()) RETURNING id`,
      ([row]) => Number(row!.id)
    )
  const orgA = yield* organization("Before version 9")
  const orgB = yield* organization("Another")
  const liveRun = (organizationId: number) =>
    Effect.map(
      sql<{ workflow_run_id: number }>`
        INSERT INTO runs (workflow_id, organization_id, mode, status, initial_context, gathered_context,
          currency, logs, sms, integration_deliveries, files, created_at)
        VALUES (7, ${organizationId}, 'phone', 'in_progress', '{}', '{}', 'PLN', '[]', '[]', '[]',
          '{"recording": null, "transcript": null}', now())
        RETURNING workflow_run_id`,
      ([row]) => Number(row!.workflow_run_id)
    )
  const talked = yield* liveRun(orgA)
  const silent = yield* liveRun(orgA)
  const elsewhere = yield* liveRun(orgB)
  const fragment = (organizationId: number, runId: number, text: string) => sql`
    INSERT INTO call_fragments (organization_id, run_id, role, text, "timestamp")
    VALUES (${organizationId}, ${runId}, 'user', ${text}, now())`
  yield* fragment(orgA, talked, "Dzień dobry")
  yield* fragment(orgA, talked, "Hello")
  // fragments under the id of another organization's run do not mark that run
  yield* fragment(orgA, elsewhere, "not theirs")

  expect((yield* Migrations.run).map(([, name]) => name)).toEqual(versionsFrom(9))

  yield* Effect.gen(function* () {
    const runs = yield* RunStore
    const fragments = yield* CallFragmentStore
    const kept = (organizationId: number, runId: number) =>
      Effect.map(
        runs.find(organizationId as never, runId as never),
        (found) => Option.getOrThrow(found).fragments_kept
      )
    expect(yield* kept(orgA, talked)).toBe(true)
    expect(yield* kept(orgA, silent)).toBe(false)
    expect(yield* kept(orgB, elsewhere)).toBe(false)
    // the fragments kept before version 9 are still there to read at the end
    expect((yield* fragments.list(orgA as never, talked as never)).map((f) => f.text)).toEqual([
      "Dzień dobry",
      "Hello"
    ])
    // an append after it marks the run it is kept for
    yield* fragments.append(orgA as never, silent as never, [
      { role: "assistant", text: "Halo?", timestamp: new Date() }
    ])
    expect(yield* kept(orgA, silent)).toBe(true)
    // a version 8 server still running writes a run and its fragment as it always did: the run is marked
    const oldServers = yield* liveRun(orgA)
    expect(yield* kept(orgA, oldServers)).toBe(false)
    yield* fragment(orgA, oldServers, "from a server not yet upgraded")
    expect(yield* kept(orgA, oldServers)).toBe(true)
    // ... but only its own organization's run
    const othersRun = yield* liveRun(orgB)
    yield* fragment(orgA, othersRun, "under another organization's run id")
    expect(yield* kept(orgB, othersRun)).toBe(false)
  }).pipe(Effect.provide(PgRunStore.layer), Effect.provide(PgCallFragmentStore.layer))
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`version 9 over live calls stored before it (${name})`, () => {
    it.live("marks the runs that kept transcript fragments, and appends go on marking", () =>
      marksRunsWithFragments.pipe(Effect.provide(database))
    )
  })
}
