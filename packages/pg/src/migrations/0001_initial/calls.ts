/**
 * Live calls' shared state: the outbound channels they hold, and the transcript fragments they have
 * reported so far (in append order: the identity column orders them).
 */
export const calls = [
  `CREATE TABLE channel_reservations (
    id text PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    reserved_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    expected_release_at timestamptz
  )`,
  `CREATE INDEX channel_reservations_by_organization ON channel_reservations (organization_id, expires_at)`,
  `CREATE TABLE call_fragments (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    run_id bigint NOT NULL CHECK (run_id > 0),
    role text NOT NULL CHECK (role IN ('user', 'assistant')),
    text text NOT NULL,
    "timestamp" timestamptz NOT NULL
  )`,
  `CREATE INDEX call_fragments_by_run ON call_fragments (run_id, organization_id, id)`
]
