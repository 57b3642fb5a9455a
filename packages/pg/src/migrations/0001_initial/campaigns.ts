/** Outbound campaigns and their contacts; a contact belongs to its campaign's organization. */
export const campaigns: ReadonlyArray<string> = [
  `CREATE TABLE campaigns (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    agent_id bigint NOT NULL CHECK (agent_id > 0),
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    status text NOT NULL CHECK (status IN ('created', 'running', 'paused', 'completed', 'canceled')),
    max_attempts integer NOT NULL CHECK (max_attempts BETWEEN 1 AND 10),
    retry_delay_seconds integer NOT NULL CHECK (retry_delay_seconds BETWEEN 0 AND 604800),
    created_at timestamptz NOT NULL,
    started_at timestamptz,
    ended_at timestamptz,
    UNIQUE (organization_id, id)
  )`,
  `CREATE INDEX campaigns_by_organization ON campaigns (organization_id, created_at DESC, id DESC)`,
  `CREATE TABLE campaign_contacts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    campaign_id bigint NOT NULL,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    phone_number text NOT NULL,
    initial_context jsonb NOT NULL CHECK (jsonb_typeof(initial_context) = 'object'),
    status text NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'failed', 'skipped')),
    attempts integer NOT NULL CHECK (attempts >= 0),
    last_run_id bigint CHECK (last_run_id > 0),
    outcome text,
    next_attempt_at timestamptz,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id)
  )`,
  // A campaign's contacts in the order they were added, all of them or those in one status.
  `CREATE INDEX campaign_contacts_by_campaign ON campaign_contacts (organization_id, campaign_id, id)`,
  `CREATE INDEX campaign_contacts_by_status ON campaign_contacts (organization_id, campaign_id, status, id)`
]
