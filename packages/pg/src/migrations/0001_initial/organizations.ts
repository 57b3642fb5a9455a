/** Organizations (tenants, with their prepaid balance) and their API keys, stored by hash only. */
export const organizations = [
  `CREATE TABLE organizations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    outbound_channels integer NOT NULL CHECK (outbound_channels > 0),
    recording_retention_days integer CHECK (recording_retention_days > 0),
    balance bigint NOT NULL CHECK (balance >= 0),
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE api_keys (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    key_hash text NOT NULL UNIQUE,
    key_prefix text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE INDEX api_keys_by_organization ON api_keys (organization_id, id DESC)`
]
