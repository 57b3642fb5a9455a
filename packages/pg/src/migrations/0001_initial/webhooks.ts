/**
 * Webhook endpoints (their signing `secret` sealed by the SecretBox) and the deliveries queued to them.
 * A delivery belongs to its endpoint's organization (a composite foreign key) and goes with the endpoint
 * (ON DELETE CASCADE, which also takes a delivery queued while the endpoint was being removed).
 */
export const webhooks = [
  `CREATE TABLE webhook_endpoints (
    id text COLLATE "C" PRIMARY KEY CHECK (id ~ '^whk_[A-Za-z0-9]{20}$'),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    url text NOT NULL,
    description text,
    events jsonb NOT NULL CHECK (jsonb_typeof(events) = 'array'),
    secret text NOT NULL CHECK (secret LIKE 'v1:%'),
    enabled boolean NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (organization_id, id)
  )`,
  `CREATE INDEX webhook_endpoints_by_organization
    ON webhook_endpoints (organization_id, created_at DESC, id DESC)`,
  `CREATE TABLE webhook_deliveries (
    id text COLLATE "C" PRIMARY KEY CHECK (id ~ '^msg_[A-Za-z0-9]{24}$'),
    organization_id bigint NOT NULL REFERENCES organizations (id),
    endpoint_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL CHECK (event_type IN ('call.started', 'call.ended', 'call.deleted')),
    run_id bigint NOT NULL CHECK (run_id > 0),
    payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
    attempts integer NOT NULL CHECK (attempts >= 0),
    status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    next_attempt_at timestamptz,
    last_status_code integer,
    last_error text,
    created_at timestamptz NOT NULL,
    delivered_at timestamptz,
    FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id)
      ON DELETE CASCADE
  )`,
  `CREATE INDEX webhook_deliveries_by_endpoint
    ON webhook_deliveries (organization_id, endpoint_id, created_at DESC, id DESC)`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_by_run ON webhook_deliveries (organization_id, run_id)`
]
