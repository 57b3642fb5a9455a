/** Improvement suggestions for an agent's prompt, decided once (pending, then accepted or dismissed). */
export const improvements = [
  `CREATE TABLE improvements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    agent_id bigint NOT NULL REFERENCES agents (id),
    status text NOT NULL CHECK (status IN ('pending', 'accepted', 'dismissed')),
    text text NOT NULL,
    rationale text,
    source_run_id bigint CHECK (source_run_id > 0),
    created_at timestamptz NOT NULL,
    decided_at timestamptz,
    applied_definition_id bigint REFERENCES agent_definitions (id)
  )`,
  `CREATE INDEX improvements_by_agent ON improvements (organization_id, agent_id, created_at DESC, id DESC)`,
  `CREATE INDEX improvements_by_agent_and_status
    ON improvements (organization_id, agent_id, status, created_at DESC, id DESC)`
]
