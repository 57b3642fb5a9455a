/**
 * FROZEN — version 1 of the schema. It has run on databases in use: never edit a statement here (the
 * migrator would not run it again, so an edit would only make new databases differ from old ones). A
 * change to the schema is a new version in this folder, listed in `Migrations.ts`.
 *
 * One file per version; within it, one group of statements per feature, in dependency order.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The statements of version 1, in the order they run. */
export const statements: ReadonlyArray<string> = [
  // Organizations (tenants, with their prepaid balance) and their API keys, stored by hash only.
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
  `CREATE INDEX api_keys_by_organization ON api_keys (organization_id, id DESC)`,
  // Secrets every server over one database must share and that nobody configures by hand (the download links'
  // signing secret), made by the first server that needs one. Encryption keys never live here.
  `CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // Agents and their definition versions. An agent points at its live version; a version belongs to its
  // agent. The pointer is checked at commit (DEFERRABLE), so that an agent and its first version can be
  // written together.
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
    FOREIGN KEY (current_definition_id) REFERENCES agent_definitions (id) DEFERRABLE INITIALLY DEFERRED`,
  // Improvement suggestions for an agent's prompt, decided once (pending, then accepted or dismissed).
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
    ON improvements (organization_id, agent_id, status, created_at DESC, id DESC)`,
  // Triggers: named entry points placing calls with a fixed agent. Their ids are drawn by the caller; lists
  // break ties of `created_at` by id in code-unit order (COLLATE "C"), as the in-memory store does.
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
    ON triggers (organization_id, status, created_at DESC, trigger_id DESC)`,
  // Outbound campaigns and their contacts; a contact belongs to its campaign's organization.
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
  `CREATE INDEX campaign_contacts_by_status ON campaign_contacts (organization_id, campaign_id, status, id)`,
  // Runs: calls, browser sessions and chats of an agent, numbered by one global identity (a voice runtime
  // knows a call by its run id alone). Logs, SMS, integration deliveries and file keys are jsonb.
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
  `CREATE INDEX runs_live ON runs (created_at, workflow_run_id) WHERE status IN ('queued', 'ringing', 'in_progress')`,
  // Live calls' shared state: the outbound channels they hold, and the transcript fragments they have
  // reported so far (in append order: the identity column orders them).
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
  `CREATE INDEX call_fragments_by_run ON call_fragments (run_id, organization_id, id)`,
  // The Do not call list: one row per organization and E.164 number. Lists break ties of `created_at` by
  // number in code-unit order (COLLATE "C"), as the in-memory store does.
  `CREATE TABLE do_not_call (
    organization_id bigint NOT NULL REFERENCES organizations (id),
    phone_number text COLLATE "C" NOT NULL,
    reason text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, phone_number)
  )`,
  `CREATE INDEX do_not_call_by_organization ON do_not_call (organization_id, created_at DESC, phone_number DESC)`,
  // The number inventory and the organizations' numbers (one table: a number is `available` without an
  // organization, then `active` and `released` with the one that ordered it), and demand requests.
  `CREATE TABLE phone_numbers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    number text NOT NULL,
    number_type text NOT NULL CHECK (number_type IN ('mobile', 'landline')),
    status text NOT NULL CHECK (status IN ('available', 'active', 'released')),
    organization_id bigint REFERENCES organizations (id),
    activated_at timestamptz,
    released_at timestamptz,
    created_at timestamptz NOT NULL,
    CHECK ((status = 'available') = (organization_id IS NULL))
  )`,
  // A number is in the inventory or held at most once; a released record does not block adding it again.
  `CREATE UNIQUE INDEX phone_numbers_number ON phone_numbers (number) WHERE status <> 'released'`,
  // Orderable numbers of a type, oldest first.
  `CREATE INDEX phone_numbers_available ON phone_numbers (number_type, id) WHERE status = 'available'`,
  // An organization's numbers by when it took them.
  `CREATE INDEX phone_numbers_by_organization
    ON phone_numbers (organization_id, (coalesce(activated_at, created_at)) DESC, id DESC)`,
  `CREATE TABLE number_requests (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    end_user_id bigint NOT NULL,
    consent boolean NOT NULL,
    note text NOT NULL,
    number_type text CHECK (number_type IN ('mobile', 'landline')),
    status text NOT NULL CHECK (status IN ('open', 'fulfilled', 'canceled')),
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX number_requests_by_organization ON number_requests (organization_id, created_at DESC, id DESC)`,
  // Tools agents call, and the credentials HTTP API tools authenticate with. A tool's `definition` may carry
  // secrets (credential headers, an integration's `api_key`) and a credential's `secret` is one: both columns
  // hold text sealed by the SecretBox (`v1:` and base64), never plaintext.
  `CREATE TABLE tools (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tool_uuid text COLLATE "C" NOT NULL UNIQUE,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    description text,
    category text NOT NULL,
    icon text,
    icon_color text,
    status text NOT NULL CHECK (status IN ('active', 'archived')),
    definition text NOT NULL CHECK (definition LIKE 'v1:%'),
    -- the credential an HTTP API tool's (sealed) definition names, in the clear for "in use" checks
    credential_uuid text COLLATE "C",
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    created_by jsonb CHECK (created_by IS NULL OR jsonb_typeof(created_by) = 'object')
  )`,
  `CREATE INDEX tools_by_organization ON tools (organization_id, created_at DESC, id DESC)`,
  `CREATE INDEX tools_by_organization_status ON tools (organization_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX tools_using_credential ON tools (organization_id, credential_uuid, created_at, id)
    WHERE status = 'active' AND credential_uuid IS NOT NULL`,
  `CREATE TABLE credentials (
    credential_uuid text COLLATE "C" PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    kind text NOT NULL CHECK (kind IN ('bearer', 'basic', 'api_key_header')),
    header_name text,
    secret text NOT NULL CHECK (secret LIKE 'v1:%'),
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX credentials_by_organization ON credentials (organization_id, created_at DESC, credential_uuid DESC)`,
  // Knowledge-base documents and their chunks. A chunk belongs to its document's organization and goes with
  // the document.
  `CREATE TABLE documents (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_uuid text NOT NULL UNIQUE,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    filename text NOT NULL,
    file_size_bytes bigint NOT NULL CHECK (file_size_bytes >= 0),
    file_hash text NOT NULL,
    mime_type text NOT NULL,
    processing_status text NOT NULL CHECK (processing_status IN ('pending', 'processing', 'completed', 'failed')),
    total_chunks integer NOT NULL CHECK (total_chunks >= 0),
    custom_metadata jsonb NOT NULL CHECK (jsonb_typeof(custom_metadata) = 'object'),
    parser_metadata jsonb NOT NULL CHECK (jsonb_typeof(parser_metadata) = 'object'),
    blob_key text NOT NULL,
    created_by bigint,
    is_active boolean NOT NULL,
    processing_error text,
    source_url text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (organization_id, id)
  )`,
  `CREATE INDEX documents_by_organization ON documents (organization_id, created_at DESC, id DESC)`,
  `CREATE TABLE document_chunks (
    document_id bigint NOT NULL,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    "index" integer NOT NULL CHECK ("index" >= 0),
    text text NOT NULL,
    PRIMARY KEY (document_id, "index"),
    FOREIGN KEY (organization_id, document_id) REFERENCES documents (organization_id, id) ON DELETE CASCADE
  )`,
  // The billing ledger: one line per run (the run id is unique), kept after its run is erased, so the run id
  // references nothing.
  `CREATE TABLE usage_records (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id bigint NOT NULL REFERENCES organizations (id),
    run_id bigint NOT NULL UNIQUE CHECK (run_id > 0),
    agent_id bigint NOT NULL CHECK (agent_id > 0),
    mode text NOT NULL,
    duration_seconds integer NOT NULL CHECK (duration_seconds >= 0),
    cost bigint NOT NULL CHECK (cost BETWEEN -1000000000000000 AND 1000000000000000),
    currency text NOT NULL CHECK (currency = 'PLN'),
    recorded_at timestamptz NOT NULL
  )`,
  // Lines of a period newest first; the totals of a period are summed from the index alone.
  `CREATE INDEX usage_records_by_organization ON usage_records (organization_id, recorded_at DESC, id DESC)
    INCLUDE (duration_seconds, cost)`,
  // Connections to outside providers (string ids drawn by the caller). The free-form `config` holds tokens
  // and passwords, so the column holds its JSON text sealed by the SecretBox, never plaintext.
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
    ON integration_connections (organization_id, created_at DESC, id DESC)`,
  // Idempotency keys, one row per organization and key: claimed while `response` is null, then holding the
  // final answer until `expires_at`. `response` is `json` (not `jsonb`) so that a replayed body keeps the key
  // order and text of the first answer.
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
  `CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at)`,
  // Webhook endpoints (their signing `secret` sealed by the SecretBox) and the deliveries queued to them. A
  // delivery belongs to its endpoint's organization (a composite foreign key) and goes with the endpoint (ON
  // DELETE CASCADE, which also takes a delivery queued while the endpoint was being removed).
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

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
