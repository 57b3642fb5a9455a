/**
 * Agents and their definition versions. An agent points at its live version; a version belongs to its
 * agent. The pointer is checked at commit (DEFERRABLE), so that an agent and its first version can be
 * written together.
 */
export const agents = [
  `CREATE TABLE agents (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    public_id text NOT NULL UNIQUE CHECK (public_id ~ '^agent_[A-Za-z0-9]{20}$'),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'archived')),
    current_definition_id bigint NOT NULL,
    template_context_variables jsonb NOT NULL CHECK (jsonb_typeof(template_context_variables) = 'object'),
    call_disposition_codes jsonb NOT NULL CHECK (jsonb_typeof(call_disposition_codes) = 'object'),
    workflow_configurations jsonb NOT NULL CHECK (jsonb_typeof(workflow_configurations) = 'object'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX agents_by_organization ON agents (organization_id, created_at DESC, id DESC)`,
  `CREATE INDEX agents_by_organization_and_status ON agents (organization_id, status, created_at DESC, id DESC)`,
  `CREATE TABLE agent_definitions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id bigint NOT NULL REFERENCES agents (id),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    version integer NOT NULL CHECK (version > 0),
    workflow_definition jsonb NOT NULL CHECK (jsonb_typeof(workflow_definition) = 'object'),
    created_at timestamptz NOT NULL,
    UNIQUE (agent_id, version)
  )`,
  `ALTER TABLE agents ADD CONSTRAINT agents_current_definition_fkey
    FOREIGN KEY (current_definition_id) REFERENCES agent_definitions (id) DEFERRABLE INITIALLY DEFERRED`
]
