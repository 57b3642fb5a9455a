import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomIdTables, randomRowIdFunction } from "./0004_tenancy.js"

const counted = ["pending", "in_progress", "completed", "failed", "skipped"] as const

/**
 * Version 6: campaigns that dial.
 *
 * - A campaign keeps its caller id, `max_concurrency`, `retry_on`, and the report's summary (`CampaignTally`):
 *   contacts per status, attempts, talk time and cost, changed in the transaction that moves the contacts,
 *   so a report never counts rows. The counters of campaigns stored before are filled from their contacts.
 * - A contact in progress carries the lease of the dialer process that placed its call
 *   (`lease_owner`, `lease_expires_at`): a process that dies stops renewing it, and another takes it back.
 *   Contacts already in progress get an expired lease, so they are taken back rather than stuck.
 * - Webhook deliveries may be about a campaign rather than a run (`campaign.started`, `campaign.completed`,
 *   `campaign.contact.skipped`): their `run_id` is null.
 * - A number appears once per campaign (earlier duplicates keep their first contact), and the dialer's
 *   reads have indexes: due pending contacts, expired leases, the contact of a run, running campaigns.
 * - Contact ids are shown now (the report, `DELETE …/contacts/{contact_id}`), so they are drawn at random
 *   as version 4 does for the other ids tenants see (`random_row_id`, which learns the table). The order
 *   contacts were added is kept apart in `added_order`, from the sequence that counted their ids (it goes
 *   on from there), and is never shown; contacts stored before keep their ids, which are their order.
 * - A running campaign remembers when a dialer round last visited it (`last_visited_at`): rounds take the
 *   least recently visited first, so campaigns with nothing due never starve the others.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE campaigns
    ADD COLUMN from_phone_number_id bigint CHECK (from_phone_number_id > 0),
    ADD COLUMN max_concurrency integer NOT NULL DEFAULT 10 CHECK (max_concurrency BETWEEN 1 AND 1000),
    ADD COLUMN retry_on jsonb NOT NULL DEFAULT '["busy", "no_answer", "failed"]'::jsonb
      CHECK (jsonb_typeof(retry_on) = 'array' AND retry_on <@ '["busy", "no_answer", "failed"]'::jsonb),
    ${counted.map((status) => `ADD COLUMN ${status}_count integer NOT NULL DEFAULT 0 CHECK (${status}_count >= 0)`).join(",\n    ")},
    ADD COLUMN attempts_count integer NOT NULL DEFAULT 0 CHECK (attempts_count >= 0),
    ADD COLUMN duration_seconds_total bigint NOT NULL DEFAULT 0 CHECK (duration_seconds_total >= 0),
    ADD COLUMN cost_total bigint NOT NULL DEFAULT 0,
    ADD COLUMN last_visited_at timestamptz`,
  `ALTER TABLE campaign_contacts
    ADD COLUMN lease_owner text,
    ADD COLUMN lease_expires_at timestamptz`,
  // calls in progress before version 6 have no dialer renewing them: expired, the first dialer takes them back
  `UPDATE campaign_contacts SET lease_expires_at = now() WHERE status = 'in_progress'`,
  `DELETE FROM campaign_contacts c USING campaign_contacts earlier
    WHERE earlier.campaign_id = c.campaign_id AND earlier.phone_number = c.phone_number AND earlier.id < c.id`,
  `UPDATE campaigns c SET
    ${counted.map((status) => `${status}_count = (SELECT count(*) FROM campaign_contacts k WHERE k.campaign_id = c.id AND k.status = '${status}')`).join(",\n    ")},
    attempts_count = (SELECT coalesce(sum(attempts), 0) FROM campaign_contacts k WHERE k.campaign_id = c.id)`,
  `ALTER TABLE campaign_contacts ADD COLUMN added_order bigint`,
  `UPDATE campaign_contacts SET added_order = id`,
  `ALTER TABLE campaign_contacts ALTER COLUMN added_order SET NOT NULL`,
  `ALTER TABLE campaign_contacts ALTER COLUMN added_order ADD GENERATED ALWAYS AS IDENTITY`,
  `SELECT setval(pg_get_serial_sequence('campaign_contacts', 'added_order'),
    (SELECT coalesce(max(id), 0) + 1 FROM campaign_contacts), false)`,
  randomRowIdFunction("CREATE OR REPLACE", [...randomIdTables, ["campaign_contacts", "id"]]),
  `ALTER TABLE campaign_contacts ALTER COLUMN id DROP IDENTITY`,
  `ALTER TABLE campaign_contacts ALTER COLUMN id SET DEFAULT random_row_id('campaign_contacts')`,
  `DROP INDEX campaign_contacts_by_campaign`,
  `DROP INDEX campaign_contacts_by_status`,
  `CREATE INDEX campaign_contacts_by_campaign ON campaign_contacts (organization_id, campaign_id, added_order)`,
  `CREATE INDEX campaign_contacts_by_status
    ON campaign_contacts (organization_id, campaign_id, status, added_order)`,
  `CREATE UNIQUE INDEX campaign_contacts_number ON campaign_contacts (campaign_id, phone_number)`,
  `CREATE INDEX campaign_contacts_due ON campaign_contacts (campaign_id, next_attempt_at NULLS FIRST, added_order)
    WHERE status = 'pending'`,
  `CREATE INDEX campaign_contacts_leases ON campaign_contacts (lease_expires_at) WHERE status = 'in_progress'`,
  `CREATE INDEX campaign_contacts_by_run ON campaign_contacts (organization_id, last_run_id)
    WHERE last_run_id IS NOT NULL`,
  `CREATE INDEX campaigns_running ON campaigns (last_visited_at NULLS FIRST, id) WHERE status = 'running'`,
  // campaign events are webhook deliveries about no run
  `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check`,
  `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check CHECK (event_type IN
    ('call.started', 'call.ended', 'call.deleted', 'campaign.started', 'campaign.completed', 'campaign.contact.skipped'))`,
  `ALTER TABLE webhook_deliveries ALTER COLUMN run_id DROP NOT NULL`
]

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
