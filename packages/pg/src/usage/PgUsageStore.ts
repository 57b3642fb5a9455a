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

/** The unique index keeping one `call` and one `analysis` line per run (`improvements` and `prompt` lines, of no run, are all kept). */
const onePerRunAndKind = "ON CONFLICT (run_id, kind) WHERE kind <> 'improvements' DO NOTHING"

/** Only `call` lines count as calls; every line adds its duration and cost. */
const sums = `count(*) FILTER (WHERE kind = 'call')::int8 AS calls,
  coalesce(sum(duration_seconds), 0)::int8 AS duration_seconds, coalesce(sum(cost), 0)::int8 AS cost`

/** The organization's lines in the period: `from` inclusive, `to` exclusive. */
const periodOf = (sql: SqlClient.SqlClient, organizationId: OrganizationId, period: UsagePeriod) =>
  sql.and([
    sql`organization_id = ${organizationId}`,
    ...(period.from !== undefined ? [sql`recorded_at >= ${period.from}`] : []),
    ...(period.to !== undefined ? [sql`recorded_at < ${period.to}`] : [])
  ])

/**
 * The totals of the organization's period: one aggregate over the period's range of
 * `usage_records_for_reports`, from the index alone. Exported for the test that checks the plan.
 */
export const totalsStatement = (
  sql: SqlClient.SqlClient,
  organizationId: OrganizationId,
  period: UsagePeriod
) => sql`SELECT ${sql.literal(sums)} FROM usage_records WHERE ${periodOf(sql, organizationId, period)}`

/**
 * The billing ledger in PostgreSQL. One line per run and kind (`call`, `analysis`) is kept by a unique index:
 * recording a run's line of a kind again, from any process, inserts nothing and answers the line already
 * there. Totals and reports read the period's index range of `usage_records_for_reports` alone (it carries
 * the kind, the agent, the duration and the cost).
 */
export const layer: Layer.Layer<UsageStore, never, SqlClient.SqlClient> = Layer.effect(
  UsageStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const one = Rows.first(UsageRecord)

    const within = (organizationId: OrganizationId, period: UsagePeriod) =>
      periodOf(sql, organizationId, period)

    const usageRecordsList = Paging.list(
      sql,
      { table: "usage_records", orderBy: "recorded_at DESC, id DESC" },
      Rows.all(UsageRecord)
    )

    return {
      record: (line) =>
        one(sql`
          INSERT INTO usage_records ${sql.insert({ ...line })}
          ${sql.literal(onePerRunAndKind)} RETURNING *`).pipe(
          Effect.flatMap(
            Option.match({
              onSome: Effect.succeed,
              // The run has its line of the kind already (the insert waited for it to commit, so it is
              // visible now). Only a line with a run meets one.
              onNone: () =>
                Rows.single(UsageRecord)(sql`
                  SELECT * FROM usage_records
                  WHERE run_id = ${line.run_id} AND kind = ${line.kind}
                    AND organization_id = ${line.organization_id}`)
            })
          )
        ),
      // One statement for the batch; a run whose line of the kind is there already (or earlier in the batch)
      // keeps it.
      recordMany: (lines) =>
        lines.length === 0
          ? Effect.void
          : Rows.execute(sql`
              INSERT INTO usage_records
                (organization_id, kind, run_id, agent_id, mode, duration_seconds, cost, prompt_tokens,
                  completion_tokens, currency, recorded_at)
              SELECT v.organization_id, v.kind, v.run_id, v.agent_id, v.mode, v.duration_seconds, v.cost,
                v.prompt_tokens, v.completion_tokens, v.currency, v.recorded_at
              FROM ${Batches.recordset(
                sql,
                lines.map((line) => ({
                  organization_id: line.organization_id,
                  kind: line.kind,
                  run_id: line.run_id,
                  agent_id: line.agent_id,
                  mode: line.mode,
                  duration_seconds: line.duration_seconds,
                  cost: line.cost,
                  prompt_tokens: line.prompt_tokens,
                  completion_tokens: line.completion_tokens,
                  currency: line.currency,
                  recorded_at: line.recorded_at
                })),
                "v",
                "organization_id bigint, kind text, run_id bigint, agent_id bigint, mode text, " +
                  "duration_seconds integer, cost bigint, prompt_tokens bigint, completion_tokens bigint, " +
                  "currency text, recorded_at timestamptz"
              )}
              ${sql.literal(onePerRunAndKind)}`),
      list: (organizationId, period, page) => {
        const where = within(organizationId, period)
        return usageRecordsList(where, page)
      },
      // One aggregate over the period's index range (usage_records_for_reports, index-only): the groups
      // come back, never the lines. A day is the UTC calendar day, as UsageReport.dayUtc has it.
      report: (organizationId, period, groupBy) =>
        groupBy === "day"
          ? Rows.all(DayRow)(sql`
              SELECT 'day' AS "group", to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                ${sql.literal(sums)}
              FROM usage_records WHERE ${within(organizationId, period)}
              GROUP BY 2 ORDER BY 2`)
          : Rows.all(AgentRow)(sql`
              SELECT 'agent' AS "group", agent_id, ${sql.literal(sums)}
              FROM usage_records WHERE ${within(organizationId, period)}
              GROUP BY agent_id ORDER BY agent_id`),
      totals: (organizationId, period) => Rows.single(Totals)(totalsStatement(sql, organizationId, period))
    }
  })
)
