import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Version 8: calls' ends add to a campaign's kept totals without waiting on its row.
 *
 * - `campaign_tallies` holds changes to a campaign's totals (contacts per status, attempts, talk time,
 *   cost) that calls' ends added, one row each, without holding the campaign's row: simultaneous ends no
 *   longer take turns on it. A campaign's totals are its row's counts plus its tallies; the dialer's claim
 *   folds the tallies into the row (deleting them) while it holds the campaign.
 * - A campaign row's `pending_count` alone may go below zero for a moment (a claim can take a contact a
 *   call's end made pending again before folding that end's tally), so its check is dropped; the sum with
 *   the tallies is what the report shows, and it is exact.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE campaign_tallies (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    pending integer NOT NULL,
    in_progress integer NOT NULL,
    completed integer NOT NULL,
    failed integer NOT NULL,
    skipped integer NOT NULL,
    attempts integer NOT NULL,
    duration_seconds bigint NOT NULL,
    cost bigint NOT NULL,
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX campaign_tallies_by_campaign ON campaign_tallies (campaign_id)`,
  `ALTER TABLE campaigns DROP CONSTRAINT campaigns_pending_count_check`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
