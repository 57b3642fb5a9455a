import type { SqlClient } from "@effect/sql"
import { Campaign, Contact } from "@voice-agent-platform/core/campaigns/Campaign.js"
import type { AttemptEndWrite, CampaignStore } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import * as CampaignTally from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import type { TallyDelta } from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import { Effect, Schema } from "effect"
import * as Batches from "../storage/Batches.js"
import * as Rows from "../storage/Rows.js"
import { tallyRow, totalsColumns } from "./PgCampaignRows.js"

/** The prefix of the campaign's columns in the row a call's end reads (the contact's carry none). */
const prefix = "campaign__"

/** What a call's end reads of its campaign: every column but the totals' (status and retry policy decide). */
const CampaignWithoutTotals = Campaign.omit("totals")

/** The campaign's columns (`c`'s) renamed with `prefix`: no totals' column, no sum of its tallies. */
const campaignSelect = Object.keys(CampaignWithoutTotals.fields)
  .map((column) => `c.${column} AS ${prefix}${column}`)
  .join(", ")

const decodeContact = Schema.decodeUnknownSync(Contact)
const decodeCampaign = Schema.decodeUnknownSync(CampaignWithoutTotals)

/** A row of the contact's columns and the campaign's prefixed ones, as the two records. */
const split = (row: Record<string, unknown>) => {
  const contact: Record<string, unknown> = {}
  const campaign: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(prefix)) campaign[key.slice(prefix.length)] = value
    else contact[key] = value
  }
  return { contact: decodeContact(contact), campaign: decodeCampaign(campaign) }
}

/** The runs' keys, as `findAttemptsForEnd`'s batch table `r` has them. */
const runColumns = "organization_id bigint, workflow_run_id bigint"

/** The contacts' moves, as `endAttempts`' batch table `m` has them (the types of `campaign_contacts`). */
const moveColumns =
  "organization_id bigint, contact_id bigint, status text, outcome text, next_attempt_at timestamptz"

/** The columns of a `campaign_tallies` row as `tallyRow` makes it, each with its type in the table. */
const tallyColumns: ReadonlyArray<readonly [name: string, type: string]> = [
  ["organization_id", "bigint"],
  ["campaign_id", "bigint"],
  ...totalsColumns.map(
    ([, tally]) => [tally, tally === "duration_seconds" || tally === "cost" ? "bigint" : "integer"] as const
  )
]
const tallyNames = tallyColumns.map(([name]) => name).join(", ")
const tallySelect = tallyColumns.map(([name]) => `t.${name}`).join(", ")
const tallyTypes = tallyColumns.map(([name, type]) => `${name} ${type}`).join(", ")

/**
 * The deltas of `ends` summed per campaign (`CampaignTally.combine`) as `campaign_tallies` rows: one row per
 * campaign and step, whatever the number of its calls that ended. A sum that changes nothing is no row.
 */
const summedTallies = (ends: ReadonlyArray<AttemptEndWrite>) => {
  const sums = new Map<string, { organizationId: number; campaignId: number; delta: TallyDelta }>()
  for (const end of ends) {
    const key = `${end.organization_id}:${end.campaign_id}`
    const sum = sums.get(key)
    sums.set(key, {
      organizationId: end.organization_id,
      campaignId: end.campaign_id,
      delta: sum === undefined ? end.delta : CampaignTally.combine(sum.delta, end.delta)
    })
  }
  return Array.from(sums.values())
    .filter((sum) => !CampaignTally.isNone(sum.delta))
    .map((sum) => tallyRow(sum.organizationId, sum.campaignId, sum.delta))
}

/**
 * What calls' ends do to their campaigns in SQL, a statement for their read and one for their write (see
 * `CampaignStore.findAttemptsForEnd` and `endAttempts`), whatever the number of calls, each batch passed
 * as one jsonb parameter (`Batches.recordset`); an empty batch costs no statement. The read holds the
 * contacts `FOR UPDATE`, in id order, and their campaigns `FOR KEY SHARE` (only status changes wait for
 * it) by one join, which reads the campaigns without their totals (no sum over their unfolded tallies:
 * the ends do not use them). The write moves the contacts in a data-modifying `WITH` (always run, whether
 * or not the rest reads it) and inserts one tally row per campaign, the sum of its calls' deltas. Every
 * row is scoped to its own organization: a run, contact or campaign of another organization than the
 * one named beside it is neither read nor written.
 */
export const make = (
  sql: SqlClient.SqlClient
): Pick<CampaignStore["Type"], "findAttemptsForEnd" | "endAttempts"> => ({
  findAttemptsForEnd: (runs) =>
    runs.length === 0
      ? Effect.succeed([])
      : sql<Record<string, unknown>>`
          SELECT k.*, ${sql.literal(campaignSelect)}
          FROM campaigns c
          JOIN campaign_contacts k ON k.organization_id = c.organization_id AND k.campaign_id = c.id
          WHERE (k.organization_id, k.last_run_id) IN (
            SELECT r.organization_id, r.workflow_run_id FROM ${Batches.recordset(
              sql,
              runs.map(({ organization_id, workflow_run_id }) => ({ organization_id, workflow_run_id })),
              "r",
              runColumns
            )})
          ORDER BY k.id
          FOR UPDATE OF k FOR KEY SHARE OF c`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map(split))
        ),
  endAttempts: (ends) =>
    ends.length === 0
      ? Effect.void
      : Rows.execute(sql`
          WITH moved AS (
            UPDATE campaign_contacts k SET status = m.status, outcome = m.outcome,
              next_attempt_at = m.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL
            FROM ${Batches.recordset(
              sql,
              ends.map((end) => ({
                organization_id: end.organization_id,
                contact_id: end.contact_id,
                status: end.move.status,
                outcome: end.move.outcome,
                next_attempt_at: end.move.next_attempt_at
              })),
              "m",
              moveColumns
            )}
            WHERE k.organization_id = m.organization_id AND k.id = m.contact_id)
          INSERT INTO campaign_tallies (${sql.literal(tallyNames)})
          SELECT ${sql.literal(tallySelect)}
          FROM ${Batches.recordset(sql, summedTallies(ends), "t", tallyTypes)}
          -- a campaign that is not of the organization named beside it takes no tally
          JOIN campaigns c ON c.organization_id = t.organization_id AND c.id = t.campaign_id`)
})
