import { Campaign } from "@voice-agent-platform/core/campaigns/Campaign.js"
import type { TallyDelta } from "@voice-agent-platform/core/campaigns/CampaignTally.js"
import { Schema } from "effect"

/**
 * How `PgCampaignStore` reads a campaign's row back: its kept totals in columns of their own, plus the
 * sums of its tallies (`campaign_tallies`, calls' ends) not yet folded in.
 */

/** The totals' columns of a campaign's row, and the names of `campaign_tallies`' columns that add to them. */
export const totalsColumns = [
  ["pending_count", "pending"],
  ["in_progress_count", "in_progress"],
  ["completed_count", "completed"],
  ["failed_count", "failed"],
  ["skipped_count", "skipped"],
  ["attempts_count", "attempts"],
  ["duration_seconds_total", "duration_seconds"],
  ["cost_total", "cost"]
] as const

/** The sums of a campaign's tallies not yet folded into its row, named `tallied_<column>` (0 when none). */
const sum = Schema.optionalWith(Schema.Number, { default: () => 0 })
const Tallied = Schema.Struct({
  tallied_pending: sum,
  tallied_in_progress: sum,
  tallied_completed: sum,
  tallied_failed: sum,
  tallied_skipped: sum,
  tallied_attempts: sum,
  tallied_duration_seconds: sum,
  tallied_cost: sum
})

/**
 * A campaign as its row holds it, the kept totals in columns of their own, with the sums of its tallies
 * (`campaign_tallies`, calls' ends) when the read joined them: the totals are the two added.
 */
export const CampaignRow = Schema.Struct({
  ...Campaign.omit("totals").fields,
  pending_count: Schema.Number,
  in_progress_count: Schema.Number,
  completed_count: Schema.Number,
  failed_count: Schema.Number,
  skipped_count: Schema.Number,
  attempts_count: Schema.Number,
  duration_seconds_total: Schema.Number,
  cost_total: Schema.Number,
  ...Tallied.fields
})

export const CampaignFromRow = Schema.transform(CampaignRow, Schema.typeSchema(Campaign), {
  strict: false,
  decode: (row) => ({
    ...row,
    totals: {
      counts: {
        pending: row.pending_count + row.tallied_pending,
        in_progress: row.in_progress_count + row.tallied_in_progress,
        completed: row.completed_count + row.tallied_completed,
        failed: row.failed_count + row.tallied_failed,
        skipped: row.skipped_count + row.tallied_skipped
      },
      attempts: row.attempts_count + row.tallied_attempts,
      duration_seconds: row.duration_seconds_total + row.tallied_duration_seconds,
      cost: row.cost_total + row.tallied_cost
    }
  }),
  encode: () => {
    throw new Error("campaigns are written column by column")
  }
})

/** `SELECT c.*, t.* ${talliedFrom} WHERE …`: campaigns `c` with the sums of their unfolded tallies (`t`). */
export const talliedFromText = `FROM campaigns c LEFT JOIN LATERAL (
        SELECT ${totalsColumns.map(([, tally]) => `coalesce(sum(${tally}), 0)::int8 AS tallied_${tally}`).join(", ")}
        FROM campaign_tallies WHERE campaign_tallies.campaign_id = c.id) t ON true`

/** A change to a campaign's kept totals as its row of `campaign_tallies` (folded in by the next claim). */
export const tallyRow = (organizationId: number, campaignId: number, d: TallyDelta) => ({
  organization_id: organizationId,
  campaign_id: campaignId,
  pending: d.counts.pending,
  in_progress: d.counts.in_progress,
  completed: d.counts.completed,
  failed: d.counts.failed,
  skipped: d.counts.skipped,
  attempts: d.attempts,
  duration_seconds: d.duration_seconds,
  cost: d.cost
})
