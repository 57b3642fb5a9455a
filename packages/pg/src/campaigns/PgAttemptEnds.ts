import type { SqlClient } from "@effect/sql"
import { Campaign, Contact } from "@voice-agent-platform/core/campaigns/Campaign.js"
import type { CampaignStore, ContactPatch } from "@voice-agent-platform/core/campaigns/CampaignStore.js"
import { Effect, Option, Schema } from "effect"
import { tallyRow } from "./PgCampaignRows.js"

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

/**
 * What a call's end does to its campaign in SQL, a statement for its read and one for its write (see
 * `CampaignStore.findAttemptForEnd` and `endAttempt`): the contact held `FOR UPDATE` and its campaign
 * `FOR KEY SHARE` (only status changes wait for it) by one join, which reads the campaign without its
 * totals (no sum over its unfolded tallies: the end does not use them); the contact's move and the tally's row by one
 * statement whose update is a data-modifying `WITH` (always run, whether or not the rest reads it).
 */
export const make = (
  sql: SqlClient.SqlClient
): Pick<CampaignStore["Type"], "findAttemptForEnd" | "endAttempt"> => ({
  findAttemptForEnd: (organizationId, runId) =>
    sql<Record<string, unknown>>`
      SELECT k.*, ${sql.literal(campaignSelect)}
      FROM campaigns c
      JOIN campaign_contacts k ON k.organization_id = c.organization_id AND k.campaign_id = c.id
      WHERE k.organization_id = ${organizationId} AND k.last_run_id = ${runId}
      FOR UPDATE OF k FOR KEY SHARE OF c`.pipe(
      Effect.orDie,
      Effect.map((rows) => (rows.length === 0 ? Option.none() : Option.some(split(rows[0]!))))
    ),
  endAttempt: (organizationId, contactId, patch: ContactPatch, campaignId, d) =>
    sql`
      WITH moved AS (
        UPDATE campaign_contacts SET ${sql.update(patch)}
        WHERE organization_id = ${organizationId} AND id = ${contactId})
      INSERT INTO campaign_tallies ${sql.insert(tallyRow(organizationId, campaignId, d))}`.pipe(
      Effect.orDie,
      Effect.asVoid
    )
})
