import { SqlClient } from "@effect/sql"
import { MinorUnits } from "@voice-agent-platform/core/money/Money.js"
import type { OrganizationId } from "@voice-agent-platform/core/organizations/Organization.js"
import { UsageRecord } from "@voice-agent-platform/core/usage/UsageRecord.js"
import type { UsagePeriod } from "@voice-agent-platform/core/usage/UsageStore.js"
import { UsageStore } from "@voice-agent-platform/core/usage/UsageStore.js"
import { AgentId } from "@voice-agent-platform/core/agents/AgentIds.js"
import { Effect, Layer, Option, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Paging from "../storage/Paging.js"
import * as Rows from "../storage/Rows.js"

const Totals = Schema.Struct({ calls: Schema.Number, duration_seconds: Schema.Number, cost: MinorUnits })
const DayRow = Schema.Struct({ group: Schema.Literal("day"), day: Schema.String, ...Totals.fields })
const AgentRow = Schema.Struct({ group: Schema.Literal("agent"), agent_id: AgentId, ...Totals.fields })

/**
 * The billing ledger in PostgreSQL. One line per run is kept by the unique run id: recording a run again,
 * from any process, inserts nothing and answers the line already there.
 */
export const layer: Layer.Layer<UsageStore, never, SqlClient.SqlClient> = Layer.effect(
  UsageStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(UsageRecord)

    /** The organization's lines in the period: `from` inclusive, `to` exclusive. */
    const within = (organizationId: OrganizationId, period: UsagePeriod) =>
      sql.and([
        sql`organization_id = ${organizationId}`,
        ...(period.from !== undefined ? [sql`recorded_at >= ${period.from}`] : []),
        ...(period.to !== undefined ? [sql`recorded_at < ${period.to}`] : [])
      ])

    return {
      record: (line) =>
        one(sql`
          INSERT INTO usage_records ${sql.insert({ ...line })}
          ON CONFLICT (run_id) DO NOTHING RETURNING *`).pipe(
          Effect.flatMap(
            Option.match({
              onSome: Effect.succeed,
              // The run has its line already (the insert waited for it to commit, so it is visible now).
              onNone: () =>
                Rows.single(UsageRecord)(sql`
                  SELECT * FROM usage_records
                  WHERE run_id = ${line.run_id} AND organization_id = ${line.organization_id}`)
            })
          )
        ),
      // One statement for the batch; a run whose line is there already (or earlier in the batch) keeps it.
      recordMany: (lines) =>
        lines.length === 0
          ? Effect.void
          : Rows.run(sql`
              INSERT INTO usage_records
                (organization_id, run_id, agent_id, mode, duration_seconds, cost, currency, recorded_at)
              SELECT v.organization_id, v.run_id, v.agent_id, v.mode, v.duration_seconds, v.cost, v.currency,
                v.recorded_at
              FROM ${Batches.recordset(
                sql,
                lines.map((line) => ({
                  organization_id: line.organization_id,
                  run_id: line.run_id,
                  agent_id: line.agent_id,
                  mode: line.mode,
                  duration_seconds: line.duration_seconds,
                  cost: line.cost,
                  currency: line.currency,
                  recorded_at: line.recorded_at
                })),
                "v",
                "organization_id bigint, run_id bigint, agent_id bigint, mode text, duration_seconds integer, " +
                  "cost bigint, currency text, recorded_at timestamptz"
              )}
              ON CONFLICT (run_id) DO NOTHING`),
      list: (organizationId, period, page) => {
        const where = within(organizationId, period)
        const { limit, offset } = Paging.window(page)
        return Paging.page(
          sql<{ readonly total: number }>`SELECT count(*)::int8 AS total FROM usage_records WHERE ${where}`,
          Rows.all(UsageRecord)(sql`
            SELECT * FROM usage_records WHERE ${where}
            ORDER BY recorded_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
          page
        )
      },
      // One aggregate over the period's index range (usage_records_for_reports, index-only): the groups
      // come back, never the lines. A day is the UTC calendar day, as UsageReport.dayUtc has it.
      report: (organizationId, period, groupBy) =>
        groupBy === "day"
          ? Rows.all(DayRow)(sql`
              SELECT 'day' AS "group", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                count(*)::int8 AS calls,
                sum(duration_seconds)::int8 AS duration_seconds, sum(cost)::int8 AS cost
              FROM usage_records WHERE ${within(organizationId, period)}
              GROUP BY 2 ORDER BY 2`)
          : Rows.all(AgentRow)(sql`
              SELECT 'agent' AS "group", agent_id, count(*)::int8 AS calls,
                sum(duration_seconds)::int8 AS duration_seconds, sum(cost)::int8 AS cost
              FROM usage_records WHERE ${within(organizationId, period)}
              GROUP BY agent_id ORDER BY agent_id`),
      totals: (organizationId, period) =>
        Rows.single(Totals)(sql`
          SELECT count(*)::int8 AS calls,
            coalesce(sum(duration_seconds), 0)::int8 AS duration_seconds,
            coalesce(sum(cost), 0)::int8 AS cost
          FROM usage_records WHERE ${within(organizationId, period)}`)
    }
  })
)
