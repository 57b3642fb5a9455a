import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { AnalysisJobStore } from "@voice-agent-platform/core/analysis/AnalysisJobStore.js"
import { ChannelStore } from "@voice-agent-platform/core/calls/ChannelStore.js"
import { CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import * as CampaignTally from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import type { Run } from "@voice-agent-platform/core/runs/Run.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { UsageStore } from "@voice-agent-platform/core/usage/UsageStore.js"
import { Effect, Layer, Tracer } from "effect"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the statements of calls' ends on PostgreSQL")

/** What `effect` answers, with the text of every statement it ran (each is a `sql.execute` span). */
const withStatements = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const native = yield* Effect.tracer
    const statements: Array<Tracer.Span> = []
    const tracer = Tracer.make({
      span: (...args) => {
        const span = native.span(...args)
        if (span.name === "sql.execute") statements.push(span)
        return span
      },
      context: (f, fiber) => native.context(f, fiber)
    })
    const answer = yield* Effect.withTracer(effect, tracer)
    return { answer, texts: statements.map((span) => String(span.attributes.get("db.query.text"))) }
  })

/**
 * The statements `batch` runs for batches of 0, 1 and `n` items: none for the empty one, and one for each
 * other, whose text is the same whatever the batch's size (one prepared plan serves every batch).
 */
const oneStatementEach = <A, E, R>(
  n: number,
  batch: (size: number) => Effect.Effect<A, E, R>
): Effect.Effect<void, E, R> =>
  Effect.gen(function* () {
    expect((yield* withStatements(batch(0))).texts).toEqual([])
    const [one] = (yield* withStatements(batch(1))).texts
    expect((yield* withStatements(batch(n))).texts).toEqual([one])
    expect(one).toBeDefined()
  })

/**
 * The items of a batch of `size` for operations that may meet an item once only (a reservation freed, a
 * line recorded): none, the first, or the `size` after it.
 */
const fresh = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<A> =>
  size <= 1 ? items.slice(0, size) : items.slice(1, 1 + size)

const keyOf = (run: Run) => ({ organization_id: run.organization_id, workflow_run_id: run.workflow_run_id })

/** A call's end that completes the attempt of `dialed`'s contact `i`, of `seconds` and twice as many minor units. */
const completes = (
  dialed: Effect.Effect.Success<ReturnType<typeof Fixtures.campaignInAttempts>>,
  i: number,
  seconds: number
) => ({
  organization_id: dialed.campaign.organization_id,
  campaign_id: dialed.campaign.id,
  contact_id: dialed.contacts[i]!.id,
  move: { status: "completed" as const, outcome: null, next_attempt_at: null },
  delta: CampaignTally.attemptEnded(CampaignTally.move("in_progress", "completed"), seconds, seconds * 2)
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  const storage = PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(database, layerSecretBox)))

  describe.skipIf(!available)(`calls' ends taken together, in SQL (${name})`, () => {
    it.live(
      "run one statement per operation, the same for every batch size, and none for an empty batch",
      () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const channels = yield* ChannelStore
          const usage = yield* UsageStore
          const campaigns = yield* CampaignStore
          const org = yield* Fixtures.organization({ outbound_channels: 100 })
          const { agent } = yield* Fixtures.agent(org.id)
          const created = yield* runs.insertMany(
            Array.from({ length: 12 }, () => Fixtures.newRun(org.id, agent.id)),
            Fixtures.epoch
          )
          const keys = created.map(keyOf)
          yield* oneStatementEach(5, (size) => runs.findManyForUpdate(keys.slice(0, size)))
          yield* oneStatementEach(5, (size) =>
            runs.endMany(
              keys.slice(0, size).map((key) => ({
                ...key,
                status: "completed" as const,
                duration_seconds: 3,
                cost: MinorUnits.make(6),
                model_cost: MinorUnits.make(1),
                analysis_status: "pending" as const,
                ended_at: Fixtures.epoch
              }))
            )
          )
          const reservations = Array.from({ length: 6 }, (_, i) => ({
            id: `${org.id}-end-${i}`,
            organization_id: org.id,
            reserved_at: Fixtures.epoch,
            expires_at: new Date(Fixtures.epoch.getTime() + 600_000),
            expected_release_at: null
          }))
          yield* channels.reserveBatch(org.id, reservations, 100, Fixtures.epoch)
          yield* oneStatementEach(5, (size) => channels.releaseMany(fresh(reservations, size)))
          yield* oneStatementEach(5, (size) =>
            usage.recordMany(
              fresh(created, size).map((run) => ({
                organization_id: org.id,
                run_id: run.workflow_run_id,
                agent_id: agent.id,
                mode: "phone",
                kind: "call" as const,
                prompt_tokens: 0,
                completion_tokens: 0,
                duration_seconds: 3,
                cost: MinorUnits.make(6),
                currency: "PLN" as const,
                recorded_at: Fixtures.epoch
              }))
            )
          )
          expect((yield* usage.totals(org.id, {})).calls).toBe(6)
          const jobs = yield* AnalysisJobStore
          const waiting = yield* jobs.waiting
          yield* oneStatementEach(5, (size) =>
            jobs.enqueue(
              fresh(created, size).map((run) => ({
                organization_id: org.id,
                kind: "call_analysis" as const,
                run_id: run.workflow_run_id,
                agent_id: agent.id
              })),
              Fixtures.epoch
            )
          )
          expect(yield* jobs.waiting).toBe(waiting + 6)
          const dialed = yield* Fixtures.campaignInAttempts(org.id, 5)
          yield* oneStatementEach(5, (size) =>
            campaigns.findAttemptsForEnd(dialed.runs.slice(0, size).map(keyOf))
          )
          yield* oneStatementEach(5, (size) =>
            campaigns.endAttempts(Array.from({ length: size }, (_, i) => completes(dialed, i, 10)))
          )
        }).pipe(Effect.provide(storage))
    )

    it.live("add one tally row per campaign, the sum of its calls' ends, and move every contact", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const campaigns = yield* CampaignStore
        const org = yield* Fixtures.organization()
        const first = yield* Fixtures.campaignInAttempts(org.id, 3)
        const second = yield* Fixtures.campaignInAttempts(org.id, 2)
        yield* campaigns.endAttempts([
          completes(first, 0, 10),
          completes(second, 0, 100),
          completes(first, 1, 20),
          completes(first, 2, 30),
          completes(second, 1, 200)
        ])
        const tallies = yield* sql<{
          readonly campaign_id: number
          readonly completed: number
          readonly in_progress: number
          readonly duration_seconds: number
          readonly cost: number
        }>`
          SELECT campaign_id, completed, in_progress, duration_seconds, cost FROM campaign_tallies
          WHERE organization_id = ${org.id} ORDER BY campaign_id`
        expect(tallies).toEqual(
          [
            {
              campaign_id: first.campaign.id,
              completed: 3,
              in_progress: -3,
              duration_seconds: 60,
              cost: 120
            },
            {
              campaign_id: second.campaign.id,
              completed: 2,
              in_progress: -2,
              duration_seconds: 300,
              cost: 600
            }
          ].sort((a, b) => a.campaign_id - b.campaign_id)
        )
        const moved = yield* sql<{ readonly status: string; readonly lease_owner: string | null }>`
          SELECT status, lease_owner FROM campaign_contacts WHERE organization_id = ${org.id}`
        expect(moved).toEqual(Array.from({ length: 5 }, () => ({ status: "completed", lease_owner: null })))
      }).pipe(Effect.provide(storage))
    )
  })
}
