/**
 * Idempotency keys, one row per organization and key: claimed while `response` is null, then holding the
 * final answer until `expires_at`. `response` is `json` (not `jsonb`) so that a replayed body keeps the
 * key order and text of the first answer.
 */
export const idempotency = [
  `CREATE TABLE idempotency_keys (
    organization_id bigint NOT NULL REFERENCES organizations (id),
    key text COLLATE "C" NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
    fingerprint text NOT NULL,
    token text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    lease_until timestamptz NOT NULL,
    response json CHECK (response IS NULL OR json_typeof(response) = 'object'),
    PRIMARY KEY (organization_id, key)
  )`,
  `CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at)`
]
