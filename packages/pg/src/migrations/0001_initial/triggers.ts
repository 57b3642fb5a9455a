/**
 * Triggers: named entry points placing calls with a fixed agent. Their ids are drawn by the caller; lists
 * break ties of `created_at` by id in code-unit order (COLLATE "C"), as the in-memory store does.
 */
export const triggers = [
  `CREATE TABLE triggers (
    trigger_id text COLLATE "C" PRIMARY KEY CHECK (trigger_id ~ '^trg_[A-Za-z0-9]{20}$'),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    agent_id bigint NOT NULL REFERENCES agents (id),
    name text NOT NULL,
    initial_context jsonb NOT NULL CHECK (jsonb_typeof(initial_context) = 'object'),
    status text NOT NULL CHECK (status IN ('active', 'archived')),
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX triggers_by_organization ON triggers (organization_id, created_at DESC, trigger_id DESC)`,
  `CREATE INDEX triggers_by_organization_and_status
    ON triggers (organization_id, status, created_at DESC, trigger_id DESC)`
]
