/**
 * Runs: calls, browser sessions and chats of an agent, numbered by one global identity (a voice runtime
 * knows a call by its run id alone). Logs, SMS, integration deliveries and file keys are jsonb.
 */
export const runs: ReadonlyArray<string> = [
  `CREATE TABLE runs (
    workflow_run_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workflow_id bigint NOT NULL CHECK (workflow_id > 0),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    mode text NOT NULL CHECK (mode IN ('phone', 'webrtc', 'smallwebrtc', 'chat')),
    status text NOT NULL CHECK (status IN (
      'initialized', 'queued', 'ringing', 'in_progress', 'completed', 'busy', 'no_answer', 'failed', 'canceled'
    )),
    name text,
    phone_number text,
    initial_context jsonb NOT NULL CHECK (jsonb_typeof(initial_context) = 'object'),
    gathered_context jsonb NOT NULL CHECK (jsonb_typeof(gathered_context) = 'object'),
    duration_seconds integer CHECK (duration_seconds >= 0),
    cost bigint CHECK (cost BETWEEN -1000000000000000 AND 1000000000000000),
    currency text NOT NULL CHECK (currency = 'PLN'),
    disposition text,
    campaign_id bigint,
    trigger_id text,
    logs jsonb NOT NULL CHECK (jsonb_typeof(logs) = 'array'),
    sms jsonb NOT NULL CHECK (jsonb_typeof(sms) = 'array'),
    integration_deliveries jsonb NOT NULL CHECK (jsonb_typeof(integration_deliveries) = 'array'),
    files jsonb NOT NULL CHECK (jsonb_typeof(files) = 'object'),
    channel_reservation_id text,
    created_at timestamptz NOT NULL,
    ended_at timestamptz
  )`,
  // An agent's runs newest first, and their count: the status rides along so that a status filter is
  // answered from the index too (an index-only scan once the table is vacuumed).
  `CREATE INDEX runs_by_agent ON runs (organization_id, workflow_id, created_at DESC, workflow_run_id DESC)
    INCLUDE (status)`,
  // Counts of an agent's runs, all of them or in one status: equal keys share posting lists (B-tree
  // deduplication), so this index is a small fraction of the one above and counting over it is much faster.
  `CREATE INDEX runs_count_by_agent ON runs (organization_id, workflow_id, status)`,
  // Retention sweeps: the organizations that have ended runs with files, and their runs by (ended_at, id).
  // The store's queries repeat the partial indexes' predicates, so that the planner matches them.
  `CREATE INDEX runs_ended_with_files ON runs (organization_id, ended_at, workflow_run_id)
    WHERE ended_at IS NOT NULL
      AND (files ->> 'recording' IS NOT NULL OR files ->> 'transcript' IS NOT NULL)`,
  // Reclaiming overdue calls: live runs of every organization, oldest first.
  `CREATE INDEX runs_live ON runs (created_at, workflow_run_id) WHERE status IN ('queued', 'ringing', 'in_progress')`
]
