import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import type { Statement } from "@effect/sql"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import * as E164 from "@voice-agent-platform/core/phone-numbers/E164.js"
import type { RunListFilter } from "@voice-agent-platform/core/runs/RunStore.js"
import { RunStore } from "@voice-agent-platform/core/runs/RunStore.js"
import { Fixtures } from "@voice-agent-platform/core/testing"
import { Effect, Layer } from "effect"
import { pageIdsStatement, runsWhere } from "../../src/runs/PgRunLists.js"
import * as PgStorage from "../../src/storage/PgStorage.js"
import {
  layerEmbedded,
  layerFreshDatabase,
  layerSecretBox,
  serverReachable,
  warnUnreachable
} from "../../testing/TestDatabase.js"

const reachable = await serverReachable()
if (!reachable) warnUnreachable("the plans of the runs lists on PostgreSQL")

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

/** Runs of two organizations, three agents each, with numbers, modes and dispositions to filter by. */
const seed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const runs = yield* RunStore
  const orgs = [yield* Fixtures.organization(), yield* Fixtures.organization()]
  let agent = orgs[0]!.id as number
  for (const org of orgs) {
    for (let a = 0; a < 3; a++) {
      const made = (yield* Fixtures.agent(org.id)).agent
      if (org === orgs[0]) agent = made.id
      yield* runs.insertMany(
        Array.from({ length: 150 }, (_, i) =>
          Fixtures.newRun(org.id, made.id, {
            mode: i % 5 === 0 ? "chat" : "phone",
            status: i % 3 === 0 ? "completed" : "no_answer",
            phone_number: i % 5 === 0 ? null : E164.E164.make(`+4850000${String(1000 + i).slice(-4)}`),
            disposition: i % 7 === 0 ? "confirmed" : i % 7 === 1 ? "declined" : null
          })
        ),
        new Date(Fixtures.epoch.getTime() + a * 1000)
      )
    }
  }
  // index-only scans are priced by the visibility map, which VACUUM sets
  yield* sql.unsafe("VACUUM ANALYZE runs")
  yield* sql.unsafe("VACUUM ANALYZE agents")
  return { sql, organizationId: orgs[0]!.id, agentId: agent }
})

/** The plans of a filter's page of ids (newest first) and of its count. */
const plansOf = (sql: SqlClient.SqlClient, organizationId: OrganizationId, filter: RunListFilter) =>
  Effect.all({
    page: planOf(pageIdsStatement(sql, runsWhere(sql, organizationId, filter), "DESC", 50, 0)),
    count: planOf(sql`SELECT count(*) FROM runs WHERE ${runsWhere(sql, organizationId, filter)}`)
  })

const plans = Effect.gen(function* () {
  const { agentId, organizationId, sql } = yield* seed
  const phone = E164.E164.make("+48500001003")
  const at = new Date(Fixtures.epoch.getTime() + 1000)
  return {
    all: yield* plansOf(sql, organizationId, {}),
    status: yield* plansOf(sql, organizationId, { status: "completed", mode: "chat" }),
    period: yield* plansOf(sql, organizationId, { created_after: at }),
    agent: yield* plansOf(sql, organizationId, { agent_id: agentId as never }),
    phone: yield* plansOf(sql, organizationId, { phone_number: phone }),
    disposition: yield* plansOf(sql, organizationId, { disposition: "confirmed" }),
    agentAndPhone: yield* plansOf(sql, organizationId, { agent_id: agentId as never, phone_number: phone })
  }
})

const onEach: ReadonlyArray<readonly [string, boolean, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  ["the embedded database (PGlite)", true, layerEmbedded],
  ["PostgreSQL", reachable, layerFreshDatabase]
]

for (const [name, available, database] of onEach) {
  describe.skipIf(!available)(`the runs lists' indexes (${name})`, () => {
    it.live(
      "every agent's runs page in index order by runs_by_organization, a number or a disposition by their own index, an agent's by runs_by_agent",
      () =>
        Effect.gen(function* () {
          const found = yield* plans
          // a page is read in the index's order: no sort of the organization's (or an agent's) runs; a
          // number's or a disposition's matches may be gathered and sorted (the planner's choice by their count)
          for (const filter of ["all", "status", "period", "agent"] as const)
            expect(found[filter].page, filter).not.toMatch(/Sort/)
          expect(found.all.page).toContain("Index Only Scan using runs_by_organization")
          expect(found.status.page).toContain("Index Only Scan using runs_by_organization")
          expect(found.status.count).toContain("Index Only Scan using runs_by_organization")
          expect(found.period.page).toContain("runs_by_organization")
          expect(found.agent.page).toContain("Index Only Scan using runs_by_agent")
          expect(found.phone.page).toContain("runs_by_phone_number")
          expect(found.phone.count).toContain("runs_by_phone_number")
          expect(found.disposition.page).toContain("runs_by_disposition")
          expect(found.disposition.count).toContain("runs_by_disposition")
          expect(found.agentAndPhone.page).toMatch(/runs_by_phone_number|runs_by_agent/)
        }).pipe(
          Effect.provide(PgStorage.layer.pipe(Layer.provideMerge(Layer.merge(database, layerSecretBox))))
        ),
      60_000
    )
  })
}
