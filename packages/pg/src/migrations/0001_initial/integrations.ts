/**
 * Connections to outside providers (string ids drawn by the caller). The free-form `config` holds tokens
 * and passwords, so the column holds its JSON text sealed by the SecretBox, never plaintext.
 */
export const integrations = [
  `CREATE TABLE integration_connections (
    id text COLLATE "C" PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    provider text NOT NULL,
    name text NOT NULL,
    config text NOT NULL CHECK (config LIKE 'v1:%'),
    enabled boolean NOT NULL,
    auth_error jsonb CHECK (auth_error IS NULL OR jsonb_typeof(auth_error) = 'object'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX integration_connections_by_organization
    ON integration_connections (organization_id, created_at DESC, id DESC)`
]
